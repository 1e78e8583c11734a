// A signed-in page's title: in the app bar (react-admin's <Title>) and in the browser's tab.
import { Title } from 'react-admin';
import { useDocumentTitle } from './documentTitle';

/** `tabTitle`: what the browser's tab says when it can say more than the app bar (the settings' tab shown). */
export function PageTitle({ title, tabTitle = title }: { title: string; tabTitle?: string }) {
  useDocumentTitle(tabTitle);
  return <Title title={title} />;
}
