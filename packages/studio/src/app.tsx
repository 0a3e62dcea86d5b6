import type { AssetClient, AssetloomApiError } from '@assetloom/sdk';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { AccountView } from './account.js';
import { AuthView } from './auth.js';
import { CharacterPage } from './characters-lazy.js';
import { href, navigate, type Studio, StudioContext, useRoute } from './context.js';
import { initialLang, type Lang, saveLang, translator } from './i18n.js';
import { ProjectView } from './project.js';
import { ProjectsView } from './projects.js';
import { forgetToken, setRequestLanguage } from './session.js';
import { ViewerView } from './viewer.js';

type SessionState = { kind: 'checking' } | { kind: 'anonymous' } | { kind: 'user'; username: string };

export function App({ api }: { api: AssetClient }) {
  const [lang, setLang] = useState<Lang>(initialLang);
  const [session, setSession] = useState<SessionState>(() =>
    api.token === undefined ? { kind: 'anonymous' } : { kind: 'checking' },
  );
  const t = useMemo(() => translator(lang), [lang]);
  const route = useRoute();

  // Saved at once (not in an effect), so a reload right after the switch keeps it.
  const switchLang = (next: Lang) => {
    saveLang(next);
    setRequestLanguage(next);
    setLang(next);
  };
  useEffect(() => {
    saveLang(lang);
    setRequestLanguage(lang);
  }, []);

  // A token kept from before a reload: ask the server who it belongs to (or drop it).
  useEffect(() => {
    if (session.kind !== 'checking') return;
    void api.GET('/api/v1/auth/me').then((result) => {
      if (result.error) {
        forgetToken(api);
        setSession({ kind: 'anonymous' });
      } else {
        setSession({ kind: 'user', username: result.data.username });
      }
    });
  }, [api, session.kind]);

  const onApiError = useCallback(
    (error: AssetloomApiError) => {
      if (error.httpStatus === 401) {
        forgetToken(api);
        setSession({ kind: 'anonymous' });
      }
    },
    [api],
  );

  const logout = () => {
    forgetToken(api);
    setSession({ kind: 'anonymous' });
    navigate(href('projects'));
  };

  const languageToggle = (
    <button
      type="button"
      class="ghost"
      lang={lang === 'zh' ? 'en' : 'zh-CN'}
      title={t('languageLabel')}
      onClick={() => switchLang(lang === 'zh' ? 'en' : 'zh')}
    >
      {t('language')}
    </button>
  );

  if (session.kind === 'checking') {
    return (
      <main id="main" class="center">
        <p role="status">{t('loading')}</p>
      </main>
    );
  }
  if (session.kind === 'anonymous') {
    return (
      <AuthView
        api={api}
        t={t}
        lang={lang}
        mode={route.parts[0] === 'register' ? 'register' : 'login'}
        languageToggle={languageToggle}
        onLoggedIn={(username) => {
          setSession({ kind: 'user', username });
          if (route.parts[0] === 'register' || route.parts[0] === 'login') navigate(href('projects'));
        }}
      />
    );
  }

  const studio: Studio = { api, t, lang, username: session.username, onApiError };
  const [section, projectId, sub, taskId] = route.parts;
  let view: preact.JSX.Element;
  if (section === 'account') view = <AccountView />;
  else if (section === 'projects' && projectId !== undefined && sub === 'tasks' && taskId !== undefined)
    view = <ViewerView key={taskId} projectId={projectId} taskId={taskId} />;
  else if (section === 'projects' && projectId !== undefined && sub === 'characters' && taskId !== undefined)
    view = <CharacterPage key={taskId} projectId={projectId} characterId={taskId} />;
  else if (section === 'projects' && projectId !== undefined)
    view = <ProjectView key={projectId} projectId={projectId} tab={route.query.get('tab') ?? 'generate'} />;
  else view = <ProjectsView page={Math.max(1, Number(route.query.get('page')) || 1)} />;

  return (
    <StudioContext.Provider value={studio}>
      <button type="button" class="skip" onClick={skipToMain}>
        {t('skip')}
      </button>
      <header class="topbar">
        <a class="brand" href={href('projects')}>
          <span class="logo" aria-hidden="true" />
          {t('appName')}
        </a>
        <nav aria-label={t('projects')}>
          <a href={href('projects')} aria-current={section !== 'account' ? 'page' : undefined}>
            {t('projects')}
          </a>
          <a href={href('account')} aria-current={section === 'account' ? 'page' : undefined}>
            {t('account')}
          </a>
        </nav>
        <div class="spacer" />
        <span class="who" data-testid="who">
          {session.username}
        </span>
        {languageToggle}
        <button type="button" class="ghost" onClick={logout}>
          {t('logout')}
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {view}
      </main>
    </StudioContext.Provider>
  );
}

/** The skip link moves focus without touching the hash router. */
function skipToMain() {
  document.getElementById('main')?.focus();
}
