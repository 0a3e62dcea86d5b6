import type { AssetloomApiError } from '@assetloom/sdk';
import { useState } from 'preact/hooks';
import { useStudio } from './context.js';
import { shownError } from './messages.js';
import { rememberToken } from './session.js';

export function AccountView() {
  const { api, t, lang, username, onApiError } = useStudio();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [error, setError] = useState<AssetloomApiError | undefined>();
  const shown = shownError(error, lang, ['/oldPassword', '/newPassword']);
  const field = (name: 'oldPassword' | 'newPassword') => {
    const text = shown.at(`/${name}`);
    return {
      props: { 'aria-invalid': text !== undefined, 'aria-describedby': text ? `${name}-error` : undefined },
      message: text && (
        <span class="field-error" id={`${name}-error`} aria-hidden="true" data-testid={`field-error-${name}`}>
          {text}
        </span>
      ),
    };
  };
  const oldPassword = field('oldPassword');
  const newPassword = field('newPassword');
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    setBusy(true);
    setMessage(null);
    setError(undefined);
    const result = await api.changePassword({
      oldPassword: String(form.get('oldPassword') ?? ''),
      newPassword: String(form.get('newPassword') ?? ''),
    });
    setBusy(false);
    if (result.error) {
      onApiError(result.error);
      setError(result.error);
      setMessage({
        ok: false,
        text: shownError(result.error, lang, ['/oldPassword', '/newPassword']).general,
      });
      return;
    }
    rememberToken(api);
    formElement.reset();
    setMessage({ ok: true, text: t('passwordChanged') });
  }

  return (
    <section class="page narrow">
      <h1>{t('account')}</h1>
      <p class="muted">
        {t('username')}: <strong>{username}</strong>
      </p>
      <form class="panel stack" onSubmit={submit}>
        <h2>{t('changePassword')}</h2>
        <input type="text" name="username" autoComplete="username" value={username} hidden readOnly />
        <label>
          {t('oldPassword')}
          <input
            name="oldPassword"
            type="password"
            autoComplete="current-password"
            required
            {...oldPassword.props}
          />
          {oldPassword.message}
        </label>
        <label>
          {t('newPassword')}
          <input
            name="newPassword"
            type="password"
            autoComplete="new-password"
            required
            minLength={6}
            {...newPassword.props}
          />
          {newPassword.message}
        </label>
        <p class={message?.ok ? 'success' : 'error'} role="status" id="password-message">
          {message?.text}
        </p>
        <button type="submit" class="primary" disabled={busy}>
          {t('changePassword')}
        </button>
      </form>
    </section>
  );
}
