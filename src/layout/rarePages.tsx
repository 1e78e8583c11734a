// react-admin's own pages for the rare states: an uncaught error, an access denied, a failed authentication and the
// authentication callback. Loaded the first time one shows (see src/App.tsx).
import { AccessDenied as RaAccessDenied, useTranslate } from 'react-admin';
import { PageTitle } from './PageTitle';

export { AuthCallback, AuthenticationError, Error } from 'react-admin';

/** « Non autorisé », named in the app bar and the browser's tab as every page is (its heading's own words). */
export function AccessDenied() {
  const translate = useTranslate();
  return (
    <>
      <PageTitle title={translate('ra.page.access_denied')} />
      <RaAccessDenied />
    </>
  );
}
