import { useState } from 'preact/hooks';
import { useStudio } from './context.js';
import { rememberToken } from './session.js';

export function AccountView() {
  const { api, t, username, onApiError } = useStudio();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    setBusy(true);
    setMessage(null);
    const result = await api.changePassword({
      oldPassword: String(form.get('oldPassword') ?? ''),
      newPassword: String(form.get('newPassword') ?? ''),
    });
    setBusy(false);
    if (result.error) {
      onApiError(result.error);
      setMessage({ ok: false, text: result.error.message });
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
          <input name="oldPassword" type="password" autoComplete="current-password" required />
        </label>
        <label>
          {t('newPassword')}
          <input name="newPassword" type="password" autoComplete="new-password" required minLength={6} />
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
