// The jsonexport library by its file, which src/admin/jsonexportOnDemand.ts loads (ra-core's import of it is aliased to that module).
declare module 'jsonexport/dist/index' {
  export default function jsonexport(data: unknown, callback: (error: Error | null, csv: string) => void): void;
}
