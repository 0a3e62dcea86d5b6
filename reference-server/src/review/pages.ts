import { type Language, REVIEW_PAGES, type ReviewPageTexts } from '@assetloom/core/review';

/**
 * The review helper's HTML: server-rendered pages with a same-origin stylesheet and script (the
 * Content-Security-Policy allows nothing inline). The script posts the form as JSON with fetch and
 * shows the server's `{error}` message in a live region; on success it goes to the landing page.
 * Each page is in the request's language (Chinese by default, English for `Accept-Language: en`;
 * the texts are @assetloom/core's catalogue, decision 0037); the browser sends the same header with
 * the form's fetch, so the messages follow.
 */

export const SCRIPT_PATH = '/assets/review-auth.js';
export const STYLE_PATH = '/assets/review-auth.css';
export const ICON_PATH = '/assets/review-auth.svg';

/** The policy every review-helper response carries. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** HTML-escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

function layout(t: ReviewPageTexts, title: string, main: string): string {
  return `<!doctype html>
<html lang="${t.htmlLang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(t.appName)}</title>
<link rel="icon" href="${ICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="${STYLE_PATH}">
<script src="${SCRIPT_PATH}" defer></script>
</head>
<body>
<main class="card">
${main}
</main>
</body>
</html>
`;
}

interface FormPage {
  title: string;
  endpoint: string;
  submit: string;
  passwordAutocomplete: 'current-password' | 'new-password';
  passwordHint?: string;
  switchText: string;
  switchHref: string;
  switchLink: string;
}

function authForm(t: ReviewPageTexts, page: FormPage): string {
  const hint = page.passwordHint
    ? `\n<p class="hint" id="password-hint">${escapeHtml(page.passwordHint)}</p>`
    : '';
  const describedBy = page.passwordHint ? ' aria-describedby="password-hint"' : '';
  return layout(
    t,
    page.title,
    `<h1>${escapeHtml(page.title)}</h1>
<form id="auth-form" method="post" action="${page.endpoint}" data-endpoint="${page.endpoint}" data-server-error="${escapeHtml(t.serverError)}" data-network-error="${escapeHtml(t.networkError)}" novalidate>
<div class="field">
<label for="email">${escapeHtml(t.email)}</label>
<input id="email" name="email" type="email" inputmode="email" autocomplete="username" required autofocus>
</div>
<div class="field">
<label for="password">${escapeHtml(t.password)}</label>
<input id="password" name="password" type="password" autocomplete="${page.passwordAutocomplete}" required${describedBy}>${hint}
</div>
<p id="form-error" class="error" role="alert" aria-live="assertive"></p>
<button type="submit">${escapeHtml(page.submit)}</button>
</form>
<noscript><p class="error">${escapeHtml(t.noScript)}</p></noscript>
<p class="switch">${escapeHtml(page.switchText)} <a href="${page.switchHref}">${escapeHtml(page.switchLink)}</a></p>`,
  );
}

export function loginPage(language: Language = 'zh'): string {
  const t = REVIEW_PAGES[language];
  return authForm(t, {
    title: t.loginTitle,
    endpoint: '/api/auth/login',
    submit: t.loginSubmit,
    passwordAutocomplete: 'current-password',
    switchText: t.noAccount,
    switchHref: '/register',
    switchLink: t.register,
  });
}

export function registerPage(language: Language = 'zh'): string {
  const t = REVIEW_PAGES[language];
  return authForm(t, {
    title: t.registerTitle,
    endpoint: '/api/auth/register',
    submit: t.registerSubmit,
    passwordAutocomplete: 'new-password',
    passwordHint: t.passwordHint,
    switchText: t.haveAccount,
    switchHref: '/login',
    switchLink: t.login,
  });
}

export function landingPage(email: string, language: Language = 'zh'): string {
  const t = REVIEW_PAGES[language];
  return layout(
    t,
    t.homeTitle,
    `<h1>${escapeHtml(t.appName)}</h1>
<p>${escapeHtml(t.signedInAs)}<strong id="signed-in-email">${escapeHtml(email)}</strong></p>
<form method="post" action="/api/auth/logout">
<button type="submit">${escapeHtml(t.logout)}</button>
</form>`,
  );
}

export function errorPage(language: Language = 'zh'): string {
  const t = REVIEW_PAGES[language];
  return layout(
    t,
    t.errorTitle,
    `<h1>${escapeHtml(t.errorTitle)}</h1>
<p role="alert">${escapeHtml(t.errorText)}</p>
<p><a href="/login">${escapeHtml(t.backToLogin)}</a></p>`,
  );
}

export const STYLESHEET = `*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","PingFang SC",sans-serif;color:#1f2328;background:#f6f8fa}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem}
.card{width:100%;max-width:24rem;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:2rem}
h1{font-size:1.5rem;margin:0 0 1.5rem}
.field{margin-bottom:1rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{width:100%;font:inherit;padding:.5rem .75rem;border:1px solid #8c959f;border-radius:6px}
input:focus,button:focus,a:focus{outline:3px solid #0969da;outline-offset:2px}
.hint{margin:.25rem 0 0;font-size:.875rem;color:#57606a}
.error{min-height:1.5em;color:#cf222e;font-weight:600;margin:0 0 1rem}
button{width:100%;font:inherit;font-weight:600;padding:.6rem;border:0;border-radius:6px;background:#1f883d;color:#fff;cursor:pointer}
button[disabled]{opacity:.6;cursor:progress}
.switch{margin:1.5rem 0 0;text-align:center}
a{color:#0969da}
strong{overflow-wrap:anywhere}
`;

/** The page script (served from /assets/review-auth.js, so `script-src 'self'` suffices). */
export const PAGE_SCRIPT = `'use strict';
(function () {
  var form = document.getElementById('auth-form');
  if (!form) return;
  var errorBox = document.getElementById('form-error');
  var button = form.querySelector('button[type="submit"]');
  var serverError = form.getAttribute('data-server-error');
  var networkError = form.getAttribute('data-network-error');
  function show(message) {
    errorBox.textContent = message;
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    show('');
    var body = JSON.stringify({ email: form.elements.email.value, password: form.elements.password.value });
    button.disabled = true;
    fetch(form.getAttribute('data-endpoint'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'same-origin',
      body: body
    })
      .then(function (response) {
        if (response.ok) {
          window.location.assign('/');
          return;
        }
        return response.json().then(
          function (data) {
            show(data && typeof data.error === 'string' ? data.error : serverError);
          },
          function () {
            show(serverError);
          }
        );
      })
      .catch(function () {
        show(networkError);
      })
      .then(function () {
        button.disabled = false;
      });
  });
})();
`;

/** The tab icon (a same-origin SVG, so browsers do not ask the asset API for /favicon.ico). */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f883d"/><path d="M9 17l5 5 9-11" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>
`;
