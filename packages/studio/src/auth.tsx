import type { AssetClient, AssetloomApiError } from '@assetloom/sdk';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { href } from './context.js';
import type { Lang, Translate } from './i18n.js';
import { shownError } from './messages.js';
import { rememberToken } from './session.js';

const FIELDS = ['/username', '/password', '/email'] as const;

/** Log in or sign up (then log in): the server's messages in the UI's language, each at its field. */
export function AuthView(props: {
  api: AssetClient;
  t: Translate;
  lang: Lang;
  mode: 'login' | 'register';
  languageToggle: ComponentChildren;
  onLoggedIn: (username: string) => void;
}) {
  const { api, t, mode } = props;
  const [error, setError] = useState<AssetloomApiError | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const username = String(form.get('username') ?? '');
    const password = String(form.get('password') ?? '');
    const email = String(form.get('email') ?? '').trim();
    setBusy(true);
    setError(undefined);
    try {
      if (mode === 'register') {
        const created = await api.POST('/auth/register', {
          body: { username, password, ...(email ? { email } : {}) },
        });
        if (created.error) return setError(created.error);
      }
      const result = await api.login({ username, password });
      if (result.error) return setError(result.error);
      rememberToken(api);
      props.onLoggedIn(result.data.user.username);
    } finally {
      setBusy(false);
    }
  }

  const title = mode === 'login' ? t('loginTitle') : t('registerTitle');
  const shown = shownError(error, props.lang, FIELDS);
  const field = (name: (typeof FIELDS)[number]) => {
    const message = shown.at(name);
    const id = `auth-${name.slice(1)}-error`;
    return {
      props: { 'aria-invalid': message !== undefined, 'aria-describedby': message ? id : undefined },
      message: message && (
        <span class="field-error" id={id} aria-hidden="true" data-testid={`field-error-${name.slice(1)}`}>
          {message}
        </span>
      ),
    };
  };
  const username = field('/username');
  const email = field('/email');
  const password = field('/password');
  return (
    <div class="auth-page">
      <header class="auth-top">
        <span class="brand">
          <span class="logo" aria-hidden="true" />
          {t('appName')}
        </span>
        {props.languageToggle}
      </header>
      <main id="main" class="auth-card panel">
        <h1>{title}</h1>
        <form onSubmit={submit} aria-describedby="auth-error" key={mode}>
          <label>
            {t('username')}
            <input name="username" autoComplete="username" required {...username.props} />
            {username.message}
          </label>
          {mode === 'register' && (
            <label>
              {t('email')}
              <input name="email" type="email" autoComplete="email" {...email.props} />
              {email.message}
            </label>
          )}
          <label>
            {t('password')}
            <input
              name="password"
              type="password"
              autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
              required
              {...password.props}
            />
            {password.message}
          </label>
          <p id="auth-error" class="error" role="alert">
            {shown.general}
          </p>
          <button type="submit" class="primary" disabled={busy}>
            {mode === 'login' ? t('login') : t('registerAndLogin')}
          </button>
        </form>
        <p class="switch">
          {mode === 'login' ? (
            <a href={href('register')}>{t('noAccount')}</a>
          ) : (
            <a href={href('login')}>{t('haveAccount')}</a>
          )}
        </p>
      </main>
    </div>
  );
}
