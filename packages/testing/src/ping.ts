import { MongoClient } from 'mongodb';
import { describeError } from './errors.js';

export type PingResult =
  | {
      ok: true;
      /** The MongoDB version the server reports. */
      version: string | null;
      /** FerretDB's own version when the server is FerretDB (its buildInfo says so), else null. */
      ferretdb: string | null;
    }
  | { ok: false; error: string };

/** Connects to `uri`, runs `ping` (and `buildInfo` for the version) and disconnects. Never throws. */
export async function pingMongo(uri: string, timeoutMs = 2_000): Promise<PingResult> {
  let client: MongoClient;
  try {
    client = new MongoClient(uri, {
      serverSelectionTimeoutMS: timeoutMs,
      connectTimeoutMS: timeoutMs,
      socketTimeoutMS: timeoutMs * 2,
      maxPoolSize: 1,
    });
  } catch (error) {
    return { ok: false, error: `invalid MongoDB URI: ${describeError(error)}` };
  }
  try {
    await client.db('admin').command({ ping: 1 });
    let version: string | null = null;
    let ferretdb: string | null = null;
    try {
      const info = await client.db('admin').command({ buildInfo: 1 });
      version = typeof info.version === 'string' ? info.version : null;
      ferretdb = typeof info.ferretdbVersion === 'string' ? info.ferretdbVersion : null;
    } catch {
      version = null;
    }
    return { ok: true, version, ferretdb };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The URI with any password replaced by `***`, for logs. */
export function redactUri(uri: string): string {
  return uri.replace(/^([a-z+]+:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}
