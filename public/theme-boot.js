// Paint the stored theme before React starts, so a light-mode user never sees a dark flash.
document.documentElement.dataset.theme = localStorage.getItem('theme') === 'light' ? 'light' : 'dark';
