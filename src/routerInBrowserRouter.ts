// What react-admin's router adapter (ra-core's reactRouterProvider) imports from react-router-dom, for an app that is
// always inside <BrowserRouter> (src/main.tsx). The adapter builds its own hash router only outside any router, so its
// createHashRouter and RouterProvider are never called here; imported for real, they would bring react-router's data
// router (createRouter, its loaders and actions: ≈55 KB of minified code) into every page's entry. vite.config.ts
// sends only that adapter's import here; everything else of react-router-dom is the real one.
export * from 'react-router-dom';

const outsideBrowserRouter = () => {
  throw new Error("Pecflow se rend dans <BrowserRouter> (src/main.tsx) : react-admin n'a pas de routeur à créer.");
};
export const createHashRouter = outsideBrowserRouter;
export const RouterProvider = outsideBrowserRouter;
