// react-admin's own pages for the rare states: an uncaught error, an access denied, a failed authentication and the
// authentication callback. Loaded the first time one shows (see src/App.tsx).
export { AccessDenied, AuthCallback, AuthenticationError, Error } from 'react-admin';
