// The bench's server as a child process (bench/load.ts: the compiled bundle; bench/pec.ts: tsx on a checkout): a free
// port, the start awaited on /api/health, the stop (SIGTERM, then SIGKILL), and the CPU a process has used.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
}

/**
 * Starts `node args` with PORT, HOST and PUBLIC_URL set to a free port of loopback, and waits until /api/health
 * answers 200 (`timeoutMs`: a shared machine may take minutes to compile the server with tsx).
 */
export async function startServerProcess(args: string[], options: SpawnOptions & { env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    ...options,
    env: { ...options.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl },
  });
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`le serveur s'est arrêté (code ${child.exitCode})`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).status === 200) return { baseUrl, child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('le serveur ne répond pas');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** SIGTERM, then SIGKILL if the server has not exited within `graceMs`. */
export async function stopServerProcess(child: ChildProcess, graceMs = 20_000) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); undefined when it is gone. */
export function cpuMs(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}
