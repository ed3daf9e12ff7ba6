/**
 * A minimal HTML template: `html\`<p>${value}</p>\`` escapes every interpolated value unless it is already {@link Html}
 * (a nested template or {@link raw}); arrays are joined. Every string shown is also redacted (secrets, API keys).
 */
import { redactText } from '../core/redact';
import { knownSecrets } from '../telemetry/logger';

/** Markup that is safe to insert as is. */
export class Html {
  constructor(readonly value: string) {}
  /** The markup. */
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and attribute values, after redacting secrets from it. */
export function escapeHtml(text: string): string {
  return redactText(text, knownSecrets()).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Trusted markup (our own constants, never user or loop data). */
export const raw = (markup: string): Html => new Html(markup);

function render(v: unknown): string {
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === undefined || v === null || v === false) return '';
  return escapeHtml(String(v));
}

/** The tagged template. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}
