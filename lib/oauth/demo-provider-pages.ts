// The demo provider's own pages. Plain HTML so the provider runs without the app.

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Demo Bank</title>
<style>
body{font-family:system-ui,sans-serif;background:#f3f4f6;color:#111827;margin:0}
main{max-width:26rem;margin:4rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.3rem;margin-top:0}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #d1d5db;border-radius:6px}
button{padding:.55rem 1rem;border-radius:6px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;margin-top:1rem}
button.secondary{background:#fff;color:#1d4ed8}.note{color:#6b7280;font-size:.875rem}.error{color:#b91c1c}
ul{padding-left:1.2rem}
</style></head><body><main><p class="note">Demo Bank — a local demo authorization server</p>${body}</main></body></html>`;
}

export function loginPage(options: { uid: string; clientName: string; error?: string }): string {
  const uid = encodeURIComponent(options.uid);
  return layout(
    "Sign in",
    `<h1>Sign in to Demo Bank</h1>
<p><strong>${escapeHtml(options.clientName)}</strong> wants to access your Demo Bank account.</p>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ""}
<form method="post" action="/interaction/${uid}/login" autocomplete="off">
<label for="username">Username</label><input id="username" name="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit" class="secondary">Cancel</button></form>
<p class="note">Demo credentials: username <code>demo</code>, password <code>demo</code>.</p>`,
  );
}

export function consentPage(options: {
  uid: string;
  clientName: string;
  accountName: string;
  scopes: string[];
}): string {
  const uid = encodeURIComponent(options.uid);
  const items = options.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join("");
  return layout(
    "Allow access",
    `<h1>Allow access?</h1>
<p>Signed in as <strong>${escapeHtml(options.accountName)}</strong>.</p>
<p><strong>${escapeHtml(options.clientName)}</strong> asks for:</p><ul>${items}</ul>
<form method="post" action="/interaction/${uid}/confirm"><button type="submit">Allow</button></form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit" class="secondary">Deny</button></form>`,
  );
}

export function errorPage(message: string): string {
  return layout("Error", `<h1>Something went wrong</h1><p class="error">${escapeHtml(message)}</p>`);
}
