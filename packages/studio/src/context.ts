import type { AssetClient, AssetloomApiError, Capabilities } from '@assetloom/sdk';
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { Lang, Translate } from './i18n.js';

export interface Studio {
  api: AssetClient;
  t: Translate;
  lang: Lang;
  username: string;
  /** Called with every API error: a 401 ends the session and shows the login form. */
  onApiError(error: AssetloomApiError): void;
}

export const StudioContext = createContext<Studio | null>(null);

export function useStudio(): Studio {
  const studio = useContext(StudioContext);
  if (studio === null) throw new Error('useStudio outside the studio');
  return studio;
}

/** The hash route split into parts: `#/projects/p1/tasks/t1` → ['projects', 'p1', 'tasks', 't1']. */
export interface Route {
  parts: string[];
  query: URLSearchParams;
}

function readRoute(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path = '', search = ''] = hash.split('?');
  return {
    parts: path.split('/').filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(search),
  };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const update = () => setRoute(readRoute());
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function href(...parts: string[]): string {
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}

export function navigate(to: string): void {
  location.hash = to.replace(/^#/, '');
}

const capabilitiesOf = new WeakMap<AssetClient, Promise<Capabilities | null>>();

/**
 * What the server's image provider honours (`GET /api/v1/capabilities`, decision 0050), read once per
 * client; null until it answers, or when it cannot (an older server: everything stays offered).
 */
export function useCapabilities(): Capabilities | null {
  const { api } = useStudio();
  const [capabilities, setCapabilities] = useState<Capabilities | null>(null);
  useEffect(() => {
    let asked = capabilitiesOf.get(api);
    if (asked === undefined) {
      asked = api.getCapabilities().then(
        (answer) => answer.data ?? null,
        () => null,
      );
      capabilitiesOf.set(api, asked);
    }
    let live = true;
    void asked.then((value) => {
      if (live) setCapabilities(value);
    });
    return () => {
      live = false;
    };
  }, [api]);
  return capabilities;
}
