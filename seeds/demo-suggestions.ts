import type { Knex } from 'knex';

/**
 * Demo suggestions, written once (when there are none): from the public site, in each state of
 * their workflow — new, answered (the answer stored and delivered: `reply_state`
 * sent), closed — each with its flow rows as the engine would write them.
 */
const ROWS: {
  topic: string;
  text: string;
  sender_name: string;
  reply_method: string;
  email?: string;
  phone?: string;
  status: string;
  answer?: string;
}[] = [
  {
    topic: 'greening',
    text: 'Mahallamizdagi bogʻchaga yangi koʻchatlar ekishni taklif qilaman, yer tayyor.',
    sender_name: 'Dilnoza Karimova',
    reply_method: 'email',
    email: 'dilnoza@example.uz',
    status: 'new',
  },
  {
    topic: 'felling',
    text: 'Koʻchamizdagi eski chinorlarni asrash uchun ularni pasportlashtirish kerak.',
    sender_name: 'Jamshid Rahimov',
    reply_method: 'sms',
    phone: '901234567',
    status: 'answered',
    answer: 'Rahmat! Chinorlar roʻyxatga olinib, xaritada koʻrsatiladi.',
  },
  {
    topic: 'site',
    text: 'Saytda daraxt turlari boʻyicha qidiruv qoʻshilsa yaxshi boʻlardi.',
    sender_name: 'Malika Yusupova',
    reply_method: 'email',
    email: 'malika@example.uz',
    status: 'closed',
  },
];

export async function seedSuggestionsDemo(knex: Knex, log: (s: string) => void): Promise<void> {
  if (!(await knex.schema.hasTable('suggestions'))) return;
  const [{ n }] = await knex('suggestions').count<{ n: number }[]>({ n: '*' });
  if (Number(n) > 0) return;
  const admin = await knex('users').whereRaw('lower(username) = ?', ['admin']).first('id');
  for (const [i, r] of ROWS.entries()) {
    const created = new Date(Date.now() - (i + 1) * 86_400_000).toISOString();
    const answered = r.status === 'answered';
    const [row] = await knex('suggestions')
      .insert({
        topic: r.topic,
        text: r.text,
        sender_name: r.sender_name,
        reply_method: r.reply_method,
        email: r.email ?? null,
        phone: r.phone ?? null,
        source: 'public',
        status: r.status,
        answer: r.answer ?? null,
        answered_at: answered ? new Date().toISOString() : null,
        answered_by: answered ? (admin?.id ?? null) : null,
        // the demo's answer was delivered the day it was given: a `pending` here would wait for a delivery no queue holds
        reply_state: answered ? 'sent' : null,
        created_at: created,
        updated_at: created,
      })
      .returning('id');
    if (r.status !== 'new' && (await knex.schema.hasTable('flows'))) {
      await knex('flows').insert({
        entity: 'suggestion',
        record_id: row.id,
        action: r.status === 'answered' ? 'answer' : 'close',
        from_state: 'new',
        to_state: r.status,
        user_id: admin?.id ?? null,
        comment: null,
      });
    }
  }
  log(`demo: ${ROWS.length} suggestions`);
}
