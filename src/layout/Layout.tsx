import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { Menu } from './Menu';
import { Toasts } from './Toasts';

export function Layout({ children }: { children: ReactNode }) {
  return (
    <>
      <RaLayout appBar={AppBar} menu={Menu}>
        {children}
      </RaLayout>
      <Toasts />
    </>
  );
}
