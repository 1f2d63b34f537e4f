// E-mail addresses: the one form an address is stored and looked up in, and what counts as one. A leaf, so the
// outbox and the people it writes to can both use it.

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_RULE = "must be an e-mail address, e.g. ada@example.com";

/** The one form an address is stored and looked up in. */
export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export function emailProblem(email: string): string | null {
  const normalised = normaliseEmail(email);
  return EMAIL.test(normalised) && normalised.length <= 254 ? null : EMAIL_RULE;
}
