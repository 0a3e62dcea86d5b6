import { randomId, systemClock } from '../defaults.js';
import { AssetloomError } from '../errors.js';
import { type HashGate, isHashGateRefusal } from '../hash-gate.js';
import type { Clock, PasswordHasher, RateLimiter } from '../ports.js';
import { DuplicateKeyError } from '../store.js';
import { reviewErrors } from './messages.js';
import { checkLogin, checkRegistration, DEFAULT_SETTINGS, type Result } from './rules.js';
import type { ReviewStore, ReviewUserRecord } from './store.js';

export interface ReviewAuthServiceDeps {
  store: ReviewStore;
  /** The server passes its scrypt hasher; the salted hash is all that is stored. */
  hasher: PasswordHasher;
  clock?: Clock;
  /** Failed logins per `${email}|${ip}`; past the limit → 429 with the seconds to wait. */
  loginLimiter?: RateLimiter;
  /** Failed logins per client address across e-mails (`login|${ip}`); the server shares it with the asset API. */
  loginIpLimiter?: RateLimiter;
  /** Registrations per client address (`register|${ip}`), shared with the asset API. */
  registerIpLimiter?: RateLimiter;
  /** The bound on password hashes at once and queued, shared with the asset API (createHashGate). */
  hashGate?: HashGate;
  /** The settings given at registration (spec 001's seven by default). */
  defaultSettings?: ReadonlyArray<{ key: string; value: string }>;
}

export interface ReviewLoginContext {
  /** The client address (the throttle counts failures per e-mail + address). */
  ip: string;
}

/** A signed-in review-helper user as the pages see it (never the hash). */
export interface ReviewUser {
  id: number;
  email: string;
  createdAt: string;
}

/** A rejected call: `error.code` is the HTTP status, `error.message` the spec's Chinese text. */
export type ReviewResult<T> = Result<T, AssetloomError>;

export interface ReviewAuthService {
  /** POST /api/auth/register without the session: the rules, the user and its default settings. */
  register(body: unknown, ctx?: ReviewLoginContext): Promise<ReviewResult<ReviewUser>>;
  /** POST /api/auth/login without the session: the rules, the throttle and the password check. */
  login(body: unknown, ctx: ReviewLoginContext): Promise<ReviewResult<ReviewUser>>;
  /** The user a session names; null when the id is not a user id (any more). */
  userById(id: unknown): Promise<ReviewResult<ReviewUser | null>>;
  /** A user's settings as a key → value map. */
  settingsOf(userId: number): Promise<ReviewResult<Record<string, string>>>;
}

function toUser(record: ReviewUserRecord): ReviewUser {
  return { id: record.id, email: record.email, createdAt: record.createdAt.toISOString() };
}

const fail = (error: AssetloomError) => ({ ok: false, error }) as const;
const done = <T>(value: T) => ({ ok: true, value }) as const;

/**
 * Every rule of spec 001 in one browser-safe place, over the {@link ReviewStore} port: the Koa
 * server calls it and a mock could too. The HTTP layer adds only the session (and its own 500
 * 会话保存失败), CSRF and the transport.
 */
export function createReviewAuthService(deps: ReviewAuthServiceDeps): ReviewAuthService {
  const { store, hasher } = deps;
  const clock = deps.clock ?? systemClock;
  const limiter = deps.loginLimiter;
  const defaults = deps.defaultSettings ?? DEFAULT_SETTINGS;
  let dummyHash: Promise<string> | undefined;

  /** A real hash of a random password, so an unknown e-mail costs one verify like a known one. */
  function getDummyHash(): Promise<string> {
    if (!dummyHash) {
      dummyHash = hasher.hash(randomId());
      dummyHash.catch(() => {
        dummyHash = undefined;
      });
    }
    return dummyHash;
  }

  /** A hash through the gate (keyed by the client); its refusals become the review's own 503/429. */
  async function gated<T>(key: string, work: () => Promise<T>, tooMany: (s: number) => AssetloomError) {
    if (deps.hashGate === undefined) return work();
    try {
      return await deps.hashGate.run(key, work);
    } catch (err) {
      if (isHashGateRefusal(err)) {
        throw err.code === 503 ? reviewErrors.busy(err.retryAfter ?? 1) : tooMany(err.retryAfter ?? 1);
      }
      throw err;
    }
  }

  const ipOf = (ctx: ReviewLoginContext | undefined) =>
    typeof ctx?.ip === 'string' && ctx.ip.length > 0 ? ctx.ip : 'unknown';

  return {
    async register(body, ctx) {
      const checked = checkRegistration(body);
      if (!checked.ok) return checked;
      const { email, password } = checked.value;
      const ip = ipOf(ctx);
      const registerKey = `register|${ip}`;
      if (deps.registerIpLimiter) {
        const allowed = await deps.registerIpLimiter.check(registerKey);
        if (!allowed.allowed) return fail(reviewErrors.tooManyRegistrations(allowed.retryAfterSeconds));
      }

      let existing: ReviewUserRecord | null;
      try {
        existing = await store.users.byEmail(email);
      } catch (err) {
        return fail(reviewErrors.insert(err));
      }
      if (existing) return fail(reviewErrors.emailTaken());

      let passwordHash: string;
      try {
        passwordHash = await gated(
          `ip|${ip}`,
          async () => {
            if (deps.registerIpLimiter) await deps.registerIpLimiter.hit(registerKey);
            return hasher.hash(password);
          },
          reviewErrors.tooManyRegistrations,
        );
        if (typeof passwordHash !== 'string' || passwordHash.length === 0) {
          throw new TypeError('[assetloom/core] the password hasher returned no hash');
        }
      } catch (err) {
        if (err instanceof AssetloomError && (err.code === 429 || err.code === 503)) return fail(err);
        return fail(reviewErrors.hashing(err));
      }

      const now = clock.now();
      let user: ReviewUserRecord;
      try {
        user = await store.users.create({ email, passwordHash, createdAt: now, updatedAt: now });
      } catch (err) {
        if (err instanceof DuplicateKeyError && err.field === 'email')
          return fail(reviewErrors.emailTaken(err));
        return fail(reviewErrors.insert(err));
      }

      try {
        await store.settings.insertMissing(user.id, defaults, now);
      } catch (err) {
        // No transactions on the target: undo the user so the person can simply try again.
        await store.users.delete(user.id).catch(() => false);
        return fail(reviewErrors.insert(err));
      }
      return done(toUser(user));
    },

    async login(body, ctx) {
      const checked = checkLogin(body);
      if (!checked.ok) return checked;
      const { email, password } = checked.value;
      const ip = ipOf(ctx);
      const key = `${email}|${ip}`;
      const ipKey = `login|${ip}`;

      try {
        if (limiter) {
          const allowed = await limiter.check(key);
          if (!allowed.allowed) return fail(reviewErrors.tooManyAttempts(allowed.retryAfterSeconds));
        }
        // Failures per address across e-mails: a flood of made-up addresses stops here, unhashed.
        if (deps.loginIpLimiter) {
          const allowed = await deps.loginIpLimiter.check(ipKey);
          if (!allowed.allowed) return fail(reviewErrors.tooManyAttempts(allowed.retryAfterSeconds));
        }
        const user = await store.users.byEmail(email).catch((err: unknown) => {
          throw reviewErrors.server(err);
        });
        const matches = await gated(
          `ip|${ip}`,
          async () => {
            if (user) return hasher.verify(password, user.passwordHash);
            await hasher.verify(password, await getDummyHash()).catch(() => false);
            return false;
          },
          reviewErrors.tooManyAttempts,
        );
        if (!user || matches !== true) {
          if (limiter) await limiter.hit(key);
          if (deps.loginIpLimiter) await deps.loginIpLimiter.hit(ipKey);
          deps.hashGate?.failed(`ip|${ip}`);
          return fail(reviewErrors.badCredentials());
        }
        if (limiter) await limiter.reset(key);
        deps.hashGate?.succeeded(`ip|${ip}`);
        return done(toUser(user));
      } catch (err) {
        return fail(err instanceof AssetloomError ? err : reviewErrors.server(err));
      }
    },

    async userById(id) {
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return done(null);
      try {
        const user = await store.users.byId(id);
        return done(user ? toUser(user) : null);
      } catch (err) {
        return fail(reviewErrors.server(err));
      }
    },

    async settingsOf(userId) {
      try {
        const list = await store.settings.list(userId);
        return done(Object.fromEntries(list.map((s) => [s.key, s.value])));
      } catch (err) {
        return fail(reviewErrors.server(err));
      }
    },
  };
}
