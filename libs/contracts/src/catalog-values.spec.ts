import { isCountryCode, isCurrencyCode } from './catalog-values';

/** Every two-letter region ICU names under its own code: countries, and more. */
function icuRegionCodes(): string[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const codes: string[] = [];
  for (let first = 65; first <= 90; first++) {
    for (let second = 65; second <= 90; second++) {
      const code = String.fromCharCode(first, second);
      if (names.of(code) !== undefined && Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`) codes.push(code);
    }
  }
  return codes;
}

/** Regions ICU names that are not countries: reserved codes, groupings, pseudo-locales, unknown. */
const NOT_COUNTRIES = ['AC', 'CP', 'CQ', 'DG', 'EA', 'EU', 'EZ', 'IC', 'QO', 'TA', 'UN', 'XA', 'XB', 'ZZ'];

describe('isCountryCode', () => {
  it('takes exactly the ICU regions that are countries: the 249 of ISO 3166-1 and XK', () => {
    const countries = icuRegionCodes().filter((code) => !NOT_COUNTRIES.includes(code));
    expect(countries).toHaveLength(250);
    const allTwoLetterCodes = Array.from({ length: 26 * 26 }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)));
    expect(allTwoLetterCodes.filter(isCountryCode)).toEqual(countries);
  });

  it('takes any letter case and refuses aliases, groupings and the unknown region', () => {
    expect(['NL', 'nl', 'Gb', 'XK'].map(isCountryCode)).toEqual([true, true, true, true]);
    expect(['UK', 'SU', 'EU', 'UN', 'ZZ', 'XX', 'N', 'NLD', ''].map(isCountryCode)).toEqual(Array(9).fill(false));
  });
});

describe('isCurrencyCode', () => {
  it('takes ISO 4217 codes in use in any case, not test or withdrawn ones', () => {
    expect(['EUR', 'eur', 'JPY', 'KWD'].map(isCurrencyCode)).toEqual([true, true, true, true]);
    expect(['XXX', 'XTS', 'DEM', 'EU', ''].map(isCurrencyCode)).toEqual(Array(5).fill(false));
  });
});
