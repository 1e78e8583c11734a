import type { ReactNode } from 'react';
import { LayoutClasses, Layout as RaLayout } from 'react-admin';
import { RowStyles } from './rowStyles';
import { AppBar } from './AppBar';
import { Menu } from './Menu';
import { Toasts } from './Toasts';

/**
 * react-admin's layout grows to fit its widest content (min-width: fit-content), so a wide table made the whole page
 * scroll sideways on a phone. Here it keeps the window's width: wide content scrolls inside its own container.
 */
const FIT_WINDOW = { minWidth: 0, [`& .${LayoutClasses.content}`]: { minWidth: 0 } };

/** react-admin's Layout draws the skip link ('Aller au contenu'); where it leaves the focus is the theme's (skipToContent.ts). */
export default function Layout({ children }: { children: ReactNode }) {
  return (
    <>
      <RowStyles />
      <RaLayout appBar={AppBar} menu={Menu} sx={FIT_WINDOW}>
        {children}
      </RaLayout>
      <Toasts />
    </>
  );
}
