/**
 * Euro amounts as the server sends them (numeric: '12.3456' or 12.3456) to whole cents and back,
 * through the decimal text, never float arithmetic (0.29 * 100 is 28.999…). Balances are shown
 * rounded DOWN to the cent: the figure shown is always one the artist can withdraw.
 */
export function centsOf(value: number | string | null | undefined): number {
  const text = String(value ?? '0').trim();
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m) return 0;
  const cents = Number(m[2] || '0') * 100 + Number(((m[3] ?? '') + '00').slice(0, 2));
  return m[1] ? -cents : cents;
}

/** 1234 → '12.34' (the amount the server is sent). */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const EUR = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' });

/** '12.3456' → '€12.34' (spec 9: EUR, 2 decimals). */
export function formatEur(value: number | string | null | undefined): string {
  return EUR.format(centsOf(value) / 100);
}
