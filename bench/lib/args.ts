// What every bench reads from its command line and environment.

/** The PostgreSQL server the benches create their databases on. */
export const benchAdminUrl = (env: NodeJS.ProcessEnv = process.env) =>
  env.BENCH_DATABASE_URL ?? env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The `--name=value` (or bare `--name`, read 'true') options of a command line, and the other words in order. */
export function benchFlags(argv: readonly string[]): { flags: Map<string, string>; names: string[] } {
  const flags = new Map<string, string>();
  const names: string[] = [];
  for (const arg of argv) {
    const match = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
    if (match) flags.set(match[1]!, match[2] ?? 'true');
    else names.push(arg);
  }
  return { flags, names };
}
