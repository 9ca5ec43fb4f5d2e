/**
 * The heaviest template a printer can store: a body of exactly `limit` characters (the
 * `template-documents.body` maxLength) packed with as many placeholders as fit, written as the
 * back-office editor writes them (`<span data-field="CODE" data-kind="reserved">CODE</span>`), every
 * third one bold so the PDF switches fonts all along, in paragraphs of twelve — what the
 * "one big template stalls the server" report printed (197,379 characters, 2,340 placeholders),
 * packed tighter.
 */
export const RESERVED_CODES = [
  'NUMBER',
  'DATE',
  'DATE_WORDS',
  'OFFENDER',
  'SUBJECT',
  'SUBJECT_INN',
  'ADDRESS',
  'AMOUNT',
  'AMOUNT_WORDS',
  'INSPECTOR',
  'REGION',
  'TODAY',
];

export function largestTemplate(limit: number, codes = RESERVED_CODES): { body: string; placeholders: number } {
  const span = (c: string) => `<span data-field="${c}" data-kind="reserved">${c}</span>`;
  let body = '';
  let para = '';
  let placeholders = 0;
  for (let i = 0; ; i++) {
    const code = codes[i % codes.length];
    const piece = `${i % 3 === 0 ? `<strong>${span(code)}</strong>` : span(code)}, `;
    if (body.length + 3 + para.length + piece.length + 4 > limit) break;
    para += piece;
    placeholders++;
    if ((i + 1) % 12 === 0) {
      body += `<p>${para}</p>`;
      para = '';
    }
  }
  // the rest of the limit: text in the last paragraph
  const room = limit - body.length - 7 - para.length;
  body += `<p>${para}${'Imzo. '.repeat(Math.ceil(room / 6)).slice(0, room)}</p>`;
  return { body, placeholders };
}

/** Values for the reserved codes, long as real ones are (an amount and a date in words). */
export const RESERVED_VALUES: Record<string, string> = {
  NUMBER: '123456',
  DATE: '24.11.2026',
  DATE_WORDS: 'ikki ming yigirma oltinchi yil yigirma toʻrtinchi noyabr',
  OFFENDER: 'Қўчқоров Ҳамид Ғайратович',
  SUBJECT: 'Toʻqimachilik Gʻalla MChJ',
  SUBJECT_INN: '301234567',
  ADDRESS: 'Chilonzor 7',
  AMOUNT: '1 200 000.50',
  AMOUNT_WORDS: 'bir million ikki yuz ming soʻm 50 tiyin',
  INSPECTOR: 'Olimov Baxtiyor',
  REGION: 'Toshkent shahri',
  TODAY: '01.12.2026',
};
