// HTML for the authorize flow: the consent page and the error page. Button ids
// (#allow, #cancel) and the user select (#user) are stable: browser tests click them.
import type { OAuthClient } from '../types.js';
import type { User } from '../store/records.js';

export const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}ul{padding-left:1.2rem}.note{color:#666;font-size:.9rem}
button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem;cursor:pointer}#allow{background:#1a7f37;color:#fff;border:0;border-radius:4px}
form{display:inline}</style></head><body>${body}</body></html>`;

export function consentPage(o: { client: OAuthClient; users: User[]; redirectUri: string; state: string | null; companyName: string }): string {
  const hidden = (decision: string) => `
    <input type="hidden" name="client_id" value="${esc(o.client.clientId)}">
    <input type="hidden" name="redirect_uri" value="${esc(o.redirectUri)}">
    ${o.state !== null ? `<input type="hidden" name="state" value="${esc(o.state)}">` : ''}
    <input type="hidden" name="decision" value="${decision}">`;
  const options = o.users.map((u) =>
    `<option value="${u.id}">${esc(u.name)} (${esc(u.email)})${u.is_admin ? ' — admin' : ''}</option>`).join('');
  return layout(`Authorize ${o.client.name}`, `
  <h1>Install <span id="app-name">${esc(o.client.name)}</span>?</h1>
  <p>The app will be able to access <strong>${esc(o.companyName)}</strong> with these permissions:</p>
  <ul id="scopes">${o.client.scopes.map((s) => `<li data-scope="${esc(s)}">${esc(s)}</li>`).join('')}</ul>
  <p><label for="user">Log in as</label>
    <select id="user" name="user_id" form="allow-form">${options}</select></p>
  <p class="note">Local sandbox: choose which seeded user authorizes the app.</p>
  <form id="allow-form" method="post" action="/oauth/authorize/decision">${hidden('allow')}
    <button id="allow" type="submit">Allow and install</button></form>
  <form id="cancel-form" method="post" action="/oauth/authorize/decision">${hidden('cancel')}
    <button id="cancel" type="submit">Cancel</button></form>`);
}

export function errorPage(message: string): string {
  return layout('Authorization error', `<h1>Authorization error</h1><p id="error">${esc(message)}</p>
  <p class="note">The request was not sent back to the app because the app or its callback could not be verified.</p>`);
}
