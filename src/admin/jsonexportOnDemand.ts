// jsonexport for react-admin's default CSV exporter (ra-core's defaultExporter, its one user: vite.config.ts points its
// import here), loaded the first time a list is exported that way rather than with every list (about 18 KB of code).
// The application's own exports are the server's CSV files (the PEC list's « Exporter »).

export default function jsonExport(data: unknown, callback: (error: Error | null, csv: string) => void) {
  import('jsonexport/dist/index').then(
    (module) => module.default(data, callback),
    (error: Error) => callback(error, ''),
  );
}
