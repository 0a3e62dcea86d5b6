import type { AssetClient } from '@assetloom/sdk';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { href } from './context.js';
import type { Translate } from './i18n.js';
import { rememberToken } from './session.js';

/** Log in or sign up (then log in): the server's messages are shown as they come. */
export function AuthView(props: {
  api: AssetClient;
  t: Translate;
  mode: 'login' | 'register';
  languageToggle: ComponentChildren;
  onLoggedIn: (username: string) => void;
}) {
  const { api, t, mode } = props;
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const username = String(form.get('username') ?? '');
    const password = String(form.get('password') ?? '');
    const email = String(form.get('email') ?? '').trim();
    setBusy(true);
    setError('');
    try {
      if (mode === 'register') {
        const created = await api.POST('/auth/register', {
          body: { username, password, ...(email ? { email } : {}) },
        });
        if (created.error) return setError(created.error.message);
      }
      const result = await api.login({ username, password });
      if (result.error) return setError(result.error.message);
      rememberToken(api);
      props.onLoggedIn(result.data.user.username);
    } finally {
      setBusy(false);
    }
  }

  const title = mode === 'login' ? t('loginTitle') : t('registerTitle');
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
            <input name="username" autoComplete="username" required />
          </label>
          {mode === 'register' && (
            <label>
              {t('email')}
              <input name="email" type="email" autoComplete="email" />
            </label>
          )}
          <label>
            {t('password')}
            <input
              name="password"
              type="password"
              autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
              required
            />
          </label>
          <p id="auth-error" class="error" role="alert">
            {error}
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
