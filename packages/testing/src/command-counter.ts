import type { CommandStartedEvent, MongoClient } from 'mongodb';

/** Commands that change data (what the "writes" budget counts). */
export const WRITE_COMMANDS: ReadonlySet<string> = new Set([
  'insert',
  'update',
  'delete',
  'findAndModify',
  'createIndexes',
  'drop',
  'dropDatabase',
]);

/** Driver chatter that is not a database operation of the application (handshakes, sessions, pings). */
const IGNORED: ReadonlySet<string> = new Set([
  'hello',
  'isMaster',
  'ismaster',
  'ping',
  'saslStart',
  'saslContinue',
  'endSessions',
  'buildInfo',
  'buildinfo',
  'getLastError',
  'killCursors',
]);

/** What a counter saw between two points. */
export interface CommandTally {
  /** Every counted command. */
  total: number;
  /** insert / update / delete / findAndModify (and index or drop commands). */
  writes: number;
  /** Everything else counted: find, count, aggregate, getMore … */
  reads: number;
  /** `<command> <collection>` → count, e.g. `find tasks`. */
  byCommand: Record<string, number>;
}

export interface CommandCounter {
  /** Counted since creation or the last reset. */
  tally(): CommandTally;
  reset(): void;
  /** Runs `fn` and returns what it sent (commands of other work running meanwhile count too). */
  measure<T>(fn: () => Promise<T>): Promise<{ result: T; tally: CommandTally }>;
  /** Stops listening. */
  stop(): void;
}

function collectionOf(event: CommandStartedEvent): string {
  const value = (event.command as Record<string, unknown>)[event.commandName];
  return typeof value === 'string' ? value : '';
}

/**
 * Counts the commands a MongoClient sends, through the driver's command monitoring: the client must
 * be created with `monitorCommands: true`. Handshakes, pings and session bookkeeping are not counted.
 */
export function countCommands(client: MongoClient): CommandCounter {
  let total = 0;
  let writes = 0;
  let byCommand: Record<string, number> = {};
  const onStarted = (event: CommandStartedEvent) => {
    if (IGNORED.has(event.commandName)) return;
    total++;
    if (WRITE_COMMANDS.has(event.commandName)) writes++;
    const key = `${event.commandName} ${collectionOf(event)}`.trim();
    byCommand[key] = (byCommand[key] ?? 0) + 1;
  };
  client.on('commandStarted', onStarted);
  const tally = (): CommandTally => ({ total, writes, reads: total - writes, byCommand: { ...byCommand } });
  return {
    tally,
    reset() {
      total = 0;
      writes = 0;
      byCommand = {};
    },
    async measure(fn) {
      const before = tally();
      const result = await fn();
      const after = tally();
      const diff: Record<string, number> = {};
      for (const [k, v] of Object.entries(after.byCommand)) {
        const d = v - (before.byCommand[k] ?? 0);
        if (d > 0) diff[k] = d;
      }
      return {
        result,
        tally: {
          total: after.total - before.total,
          writes: after.writes - before.writes,
          reads: after.reads - before.reads,
          byCommand: diff,
        },
      };
    },
    stop() {
      client.off('commandStarted', onStarted);
    },
  };
}
