/** The fund works on Tashkent's calendar (Asia/Tashkent, UTC+5). */
const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today in Tashkent as YYYY-MM-DD. */
export function todayTashkent(now: Date = new Date()): string {
  return fmt.format(now);
}

export function currentYear(): number {
  return Number(todayTashkent().slice(0, 4));
}

/** The programme's years, newest first (it started in 2021). */
export function programmeYears(): number[] {
  const years: number[] = [];
  for (let y = currentYear(); y >= 2021; y--) years.push(y);
  return years;
}
