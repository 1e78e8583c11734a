// Reads system settings (the configs table). Settings that name real behaviour drive it from here:
// token lifetime, login attempt limit, robot mode and URL.
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from './db/connect';
import { configs } from './db/schema';

const CACHE_MS = 5_000;

export class SettingsService {
  private cache = new Map<string, { value: unknown; at: number }>();

  constructor(private readonly db: Db) {}

  /** `db`: inside a transaction, pass it (PGlite has one connection: a read outside the transaction would wait for it). */
  async get<T>(key: string, fallback: T, db: DbOrTx = this.db): Promise<T> {
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return (hit.value ?? fallback) as T;
    const [row] = await db.select({ value: configs.value }).from(configs).where(eq(configs.key, key));
    this.cache.set(key, { value: row?.value ?? null, at: Date.now() });
    return (row?.value ?? fallback) as T;
  }

  async number(key: string, fallback: number, db?: DbOrTx): Promise<number> {
    const value = await this.get<unknown>(key, fallback, db);
    return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  }

  async string(key: string, fallback: string, db?: DbOrTx): Promise<string> {
    const value = await this.get<unknown>(key, fallback, db);
    return typeof value === 'string' ? value : fallback;
  }

  /** Called after a setting is written, so this instance sees the new value at once. */
  invalidate(key?: string) {
    if (key) this.cache.delete(key);
    else this.cache.clear();
  }
}

/** Keys of the settings the server itself obeys. */
export const SETTING_KEYS = {
  accessTokenTtl: 'security.access_token_ttl',
  refreshTokenTtlDays: 'security.refresh_token_ttl_days',
  loginMaxAttempts: 'security.login_max_attempts',
  loginWindowMinutes: 'security.login_window_minutes',
  robotMode: 'integrations.robot_mode',
  robotUrl: 'integrations.robot_url',
} as const;
