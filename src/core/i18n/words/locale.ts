/**
 * Number, date and plural forms of one language through `Intl` (ECMA-402 §11 NumberFormat, §11
 * DateTimeFormat, §16 PluralRules), for the word tables of ./en.ts, ./pt-BR.ts, …: a table never
 * writes a number, a date or a plural ending by hand.
 */

/** The forms of a noun by CLDR plural category; `other` is always given (CLDR: every language has it). */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** The `Intl` helpers of one language (a BCP 47 tag such as `pt-BR`). */
export interface LocaleTools {
  /** The BCP 47 tag. */
  readonly tag: string;
  /** A count in the language's digits and grouping: `1,234` (en), `1.234` (pt-BR). */
  number(count: number): string;
  /** The count followed by the noun form its plural category takes: `1 action`, `2 ações`. */
  count(count: number, forms: PluralForms): string;
  /** Only the noun form `count` takes, without the number. */
  form(count: number, forms: PluralForms): string;
  /** An ISO 8601 timestamp as a long date in UTC ("22 November 2025", "22 de novembro de 2025"); the input when it does not parse. */
  date(iso: string): string;
  /** A list joined with the language's "and": "a, b and c" / "a, b e c" (ECMA-402 §13 ListFormat). */
  and(items: readonly string[]): string;
}

/** Makes the {@link LocaleTools} of `tag`. `dateLocale` picks the date order when it differs (en → en-GB). */
export function localeTools(tag: string, dateLocale = tag): LocaleTools {
  const numbers = new Intl.NumberFormat(tag);
  const plurals = new Intl.PluralRules(tag);
  const dates = new Intl.DateTimeFormat(dateLocale, { dateStyle: 'long', timeZone: 'UTC' });
  const lists = new Intl.ListFormat(tag, { style: 'long', type: 'conjunction' });
  const form = (count: number, forms: PluralForms) => forms[plurals.select(count)] ?? forms.other;
  return {
    tag,
    number: (count) => numbers.format(count),
    form,
    count: (count, forms) => `${numbers.format(count)} ${form(count, forms)}`,
    date: (iso) => {
      const time = Date.parse(iso);
      return Number.isNaN(time) ? iso : dates.format(time);
    },
    and: (items) => lists.format(items),
  };
}

/** Upper-cases the first letter of a sentence. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
