// A signed-in page's title: in the app bar (react-admin's <Title>) and in the browser's tab.
import { Title } from 'react-admin';
import { useDocumentTitle } from './documentTitle';

export function PageTitle({ title }: { title: string }) {
  useDocumentTitle(title);
  return <Title title={title} />;
}
