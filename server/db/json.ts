/** A JSON value selected from SQL, as the driver gives it: already parsed, or still text. */
export const parsedJson = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
