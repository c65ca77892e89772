/**
 * One CSV cell (RFC 4180): numbers as they are; text quoted when it holds a quote, comma or line
 * break, or starts like a spreadsheet formula (= + - @), so a file opened in a spreadsheet
 * runs nothing.
 */
export function csvCell(text: string): string {
  if (/^-?\d+(\.\d+)?$/.test(text)) return text;
  return /[",\n\r]/.test(text) || /^[=+\-@]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
