// Test helpers (not exported from the package): a scripted fetch that records what it was sent.
import type { FetchLike } from './transport.js';

export interface Recorded {
  method: string;
  url: string;
  headers: Headers;
  body: string;
  redirect: RequestRedirect;
  credentials: RequestCredentials;
}

export type Handler = (request: Request, call: number) => Response | Promise<Response>;

export interface ScriptedFetch extends FetchLike {
  calls: Recorded[];
}

/** A fetch that answers with `handler` and records every request it sees. */
export function scriptedFetch(handler: Handler): ScriptedFetch {
  const calls: Recorded[] = [];
  const fetch = (async (request: Request) => {
    calls.push({
      method: request.method,
      url: request.url,
      headers: new Headers(request.headers),
      body: await request.clone().text(),
      redirect: request.redirect,
      credentials: request.credentials,
    });
    return handler(request, calls.length);
  }) as ScriptedFetch;
  fetch.calls = calls;
  return fetch;
}

/** A fetch that answers each call with the next response of the list (the last one repeats). */
export function sequence(
  ...answers: Array<Response | Error | (() => Response | Promise<Response>)>
): ScriptedFetch {
  return scriptedFetch(async (_request, call) => {
    const answer = answers[Math.min(call, answers.length) - 1];
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return answer();
    return (answer as Response).clone();
  });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function envelope(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return json(status, { code: 0, message: 'ok', data }, headers);
}

export function errorEnvelope(code: number, message: string, headers: Record<string, string> = {}): Response {
  return json(code, { code, message, data: null }, headers);
}

/** A fetch that never answers until the request's signal aborts (then rejects like fetch does). */
export function hangingFetch(): ScriptedFetch {
  return scriptedFetch(
    (request) =>
      new Promise<Response>((_resolve, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      }),
  );
}
