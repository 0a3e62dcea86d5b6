import { type AssetClient, createAssetClient } from '@assetloom/sdk';
import { initialLang, type Lang, safeStorage } from './i18n.js';

/**
 * The API token lives in memory (the SDK) and in sessionStorage, so a reload of the tab keeps the
 * user logged in while closing the tab forgets it; never in localStorage (decision 0022). The
 * WebSocket authenticates with the httpOnly `assetloom_token` cookie the server sets at login.
 */
const TOKEN_KEY = 'assetloom.studio.session';

export interface Session {
  username: string;
}

/** The UI language, asked of the server with every call (its messages come back in it). */
let language: Lang = initialLang();
export function setRequestLanguage(lang: Lang): void {
  language = lang;
}
/** `Accept-Language` for the UI language: English, else Chinese (the spec's messages). */
export const acceptLanguage = (lang: Lang) => (lang === 'en' ? 'en' : 'zh-CN');

export function createStudioClient(baseUrl: string): AssetClient {
  const saved = safeStorage(() => sessionStorage.getItem(TOKEN_KEY)) ?? undefined;
  return createAssetClient({
    baseUrl,
    headers: () => ({ 'Accept-Language': acceptLanguage(language) }),
    ...(saved ? { token: saved } : {}),
  });
}

export function rememberToken(api: AssetClient): void {
  const token = api.token;
  safeStorage(() =>
    token === undefined ? sessionStorage.removeItem(TOKEN_KEY) : sessionStorage.setItem(TOKEN_KEY, token),
  );
}

export function forgetToken(api: AssetClient): void {
  api.logout();
  safeStorage(() => sessionStorage.removeItem(TOKEN_KEY));
}
