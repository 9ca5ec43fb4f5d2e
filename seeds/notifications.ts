import type { Knex } from 'knex';
import { latinToCyrillic } from '../api/i18n/transliterate.ts';

/**
 * The notification methods, the types the system raises (docs/notifications.md) with their
 * variables, and a template of each type for each method, in Uzbek Latin, Uzbek Cyrillic (derived
 * by transliteration, placeholders kept) and Russian. Rows already there are left as they are: an
 * administrator's edits stay.
 */
export const METHODS = [
  { channel: 'in_app', uz: 'Tizim ichida', ru: 'В системе' },
  { channel: 'email', uz: 'Elektron pochta', ru: 'Электронная почта' },
  { channel: 'sms', uz: 'SMS', ru: 'SMS' },
] as const;

type Texts = { uz: string; ru: string };
export interface TypeSeed {
  code: string;
  name: Texts;
  variables: string;
  templates: Partial<Record<'in_app' | 'email' | 'sms', { subject?: Texts; body: Texts }>>;
}

const REPORT = 'id, year, period, comment';
export const TYPES: TypeSeed[] = [
  {
    code: 'confirm-code',
    name: { uz: 'Tasdiqlash kodi', ru: 'Код подтверждения' },
    variables: 'code, minutes',
    templates: {
      email: {
        subject: { uz: 'Tasdiqlash kodi', ru: 'Код подтверждения' },
        body: {
          uz: 'Tasdiqlash kodingiz: {code}. U {minutes} daqiqa amal qiladi.',
          ru: 'Ваш код подтверждения: {code}. Он действует {minutes} мин.',
        },
      },
      sms: { body: { uz: 'Ecofond: tasdiqlash kodi {code} ({minutes} daqiqa)', ru: 'Ecofond: код подтверждения {code} ({minutes} мин.)' } },
    },
  },
  {
    code: 'password-reset',
    name: { uz: 'Parolni tiklash kodi', ru: 'Код восстановления пароля' },
    variables: 'code, minutes',
    templates: {
      email: {
        subject: { uz: 'Parolni tiklash kodi', ru: 'Код восстановления пароля' },
        body: {
          uz: 'Parolni tiklash kodingiz: {code}. U {minutes} daqiqa amal qiladi. Agar siz soʻramagan boʻlsangiz, bu xatni eʼtiborsiz qoldiring.',
          ru: 'Ваш код восстановления пароля: {code}. Он действует {minutes} мин. Если вы его не запрашивали, не обращайте внимания на это письмо.',
        },
      },
      sms: {
        body: {
          uz: 'Ecofond: parolni tiklash kodi {code} ({minutes} daqiqa)',
          ru: 'Ecofond: код восстановления пароля {code} ({minutes} мин.)',
        },
      },
    },
  },
  {
    // a sign-up to an address that already has an account (docs/accounts.md): told to the address, never to the visitor
    code: 'account-exists',
    name: { uz: 'Hisob allaqachon bor', ru: 'Учётная запись уже есть' },
    variables: '',
    templates: {
      email: {
        subject: { uz: 'Roʻyxatdan oʻtish', ru: 'Регистрация' },
        body: {
          uz: 'Bu elektron pochta bilan hisob allaqachon bor. Uning nomi bilan kiring yoki parolni tiklang. Agar siz soʻramagan boʻlsangiz, bu xatni eʼtiborsiz qoldiring.',
          ru: 'Учётная запись с этой эл. почтой уже есть. Войдите под ней или восстановите пароль. Если вы этого не запрашивали, не обращайте внимания на это письмо.',
        },
      },
      sms: {
        body: {
          uz: 'Ecofond: bu raqam bilan hisob allaqachon bor. Kiring yoki parolni tiklang',
          ru: 'Ecofond: учётная запись с этим номером уже есть. Войдите или восстановите пароль',
        },
      },
    },
  },
  {
    code: 'report-accepted',
    name: { uz: 'Hisobot qabul qilindi', ru: 'Отчёт принят' },
    variables: REPORT,
    templates: {
      in_app: {
        subject: { uz: 'Hisobot qabul qilindi', ru: 'Отчёт принят' },
        body: { uz: '{year} yil uchun {id}-hisobotingiz qabul qilindi.', ru: 'Ваш отчёт № {id} за {year} год принят.' },
      },
      email: {
        subject: { uz: 'Hisobotingiz qabul qilindi', ru: 'Ваш отчёт принят' },
        body: {
          uz: 'Hurmatli foydalanuvchi! {year} yil uchun {id}-hisobotingiz qabul qilindi.',
          ru: 'Уважаемый пользователь! Ваш отчёт № {id} за {year} год принят.',
        },
      },
      sms: { body: { uz: 'Ecofond: {year} yil uchun {id}-hisobot qabul qilindi', ru: 'Ecofond: отчёт № {id} за {year} год принят' } },
    },
  },
  {
    code: 'report-rejected',
    name: { uz: 'Hisobot rad etildi', ru: 'Отчёт отклонён' },
    variables: REPORT,
    templates: {
      in_app: {
        subject: { uz: 'Hisobot rad etildi', ru: 'Отчёт отклонён' },
        body: { uz: '{year} yil uchun {id}-hisobotingiz rad etildi: {comment}', ru: 'Ваш отчёт № {id} за {year} год отклонён: {comment}' },
      },
      email: {
        subject: { uz: 'Hisobotingiz rad etildi', ru: 'Ваш отчёт отклонён' },
        body: {
          uz: 'Hurmatli foydalanuvchi! {year} yil uchun {id}-hisobotingiz rad etildi.\nSabab: {comment}\nHisobotni tuzatib, qayta yuboring.',
          ru: 'Уважаемый пользователь! Ваш отчёт № {id} за {year} год отклонён.\nПричина: {comment}\nИсправьте отчёт и отправьте его снова.',
        },
      },
      sms: { body: { uz: 'Ecofond: {id}-hisobot rad etildi: {comment}', ru: 'Ecofond: отчёт № {id} отклонён: {comment}' } },
    },
  },
  {
    code: 'report-returned',
    name: { uz: 'Hisobot qaytarildi', ru: 'Отчёт возвращён' },
    variables: REPORT,
    templates: {
      in_app: {
        subject: { uz: 'Hisobot qaytarildi', ru: 'Отчёт возвращён' },
        body: {
          uz: '{year} yil uchun {id}-hisobotingiz tahrirlash uchun qaytarildi. {comment}',
          ru: 'Ваш отчёт № {id} за {year} год возвращён на доработку. {comment}',
        },
      },
      email: {
        subject: { uz: 'Hisobotingiz qaytarildi', ru: 'Ваш отчёт возвращён' },
        body: {
          uz: 'Hurmatli foydalanuvchi! {year} yil uchun {id}-hisobotingiz tahrirlash uchun qaytarildi. {comment}',
          ru: 'Уважаемый пользователь! Ваш отчёт № {id} за {year} год возвращён на доработку. {comment}',
        },
      },
      sms: { body: { uz: 'Ecofond: {id}-hisobot qaytarildi', ru: 'Ecofond: отчёт № {id} возвращён' } },
    },
  },
  {
    code: 'payment-attached',
    name: { uz: 'Toʻlov biriktirildi', ru: 'Платёж прикреплён' },
    variables: 'id, number, amount, paid_on, payer',
    templates: {
      in_app: {
        subject: { uz: 'Toʻlov biriktirildi', ru: 'Платёж прикреплён' },
        body: {
          uz: '{paid_on} sanadagi {number}-sonli {amount} soʻmlik toʻlov sizga biriktirildi.',
          ru: 'К вам прикреплён платёж № {number} от {paid_on} на сумму {amount} сум.',
        },
      },
      email: {
        subject: { uz: 'Toʻlov biriktirildi', ru: 'Платёж прикреплён' },
        body: {
          uz: 'Hurmatli foydalanuvchi! {paid_on} sanadagi {number}-sonli {amount} soʻmlik toʻlov ({payer}) sizga biriktirildi.',
          ru: 'Уважаемый пользователь! К вам прикреплён платёж № {number} от {paid_on} на сумму {amount} сум ({payer}).',
        },
      },
      sms: {
        body: { uz: 'Ecofond: {amount} soʻmlik {number}-toʻlov biriktirildi', ru: 'Ecofond: прикреплён платёж № {number} на {amount} сум' },
      },
    },
  },
  {
    code: 'offence-sent-to-mvd',
    name: { uz: 'Huquqbuzarlik IIVga yuborildi', ru: 'Правонарушение передано в МВД' },
    variables: 'id, number, offence_date, address',
    templates: {
      in_app: {
        subject: { uz: 'Yangi huquqbuzarlik', ru: 'Новое правонарушение' },
        body: {
          uz: '{offence_date} sanadagi {number}-sonli huquqbuzarlik IIVga yuborildi: {address}',
          ru: 'Правонарушение № {number} от {offence_date} передано в МВД: {address}',
        },
      },
      email: {
        subject: { uz: 'Huquqbuzarlik IIVga yuborildi', ru: 'Правонарушение передано в МВД' },
        body: {
          uz: '{offence_date} sanadagi {number}-sonli huquqbuzarlik koʻrib chiqish uchun IIVga yuborildi. Manzil: {address}',
          ru: 'Правонарушение № {number} от {offence_date} передано в МВД для рассмотрения. Адрес: {address}',
        },
      },
      sms: { body: { uz: 'Ecofond: {number}-huquqbuzarlik IIVga yuborildi', ru: 'Ecofond: правонарушение № {number} передано в МВД' } },
    },
  },
  {
    // a suggestion's answer (api/modules/notifications/suggestions.ts): to the sender by the method they chose
    code: 'suggestion-answered',
    name: { uz: 'Taklifga javob', ru: 'Ответ на предложение' },
    variables: 'id, sender_name, answer',
    templates: {
      in_app: {
        subject: { uz: 'Taklifingizga javob berildi', ru: 'На ваше предложение ответили' },
        body: { uz: '{id}-sonli taklifingizga javob: {answer}', ru: 'Ответ на ваше предложение № {id}: {answer}' },
      },
      email: {
        subject: { uz: 'Taklifingizga javob', ru: 'Ответ на ваше предложение' },
        body: {
          uz: 'Hurmatli {sender_name}!\n{id}-sonli taklifingiz uchun rahmat. Javobimiz:\n{answer}\n\nEkologik jamgʻarma',
          ru: 'Уважаемый(ая) {sender_name}!\nСпасибо за ваше предложение № {id}. Наш ответ:\n{answer}\n\nЭкологический фонд',
        },
      },
      sms: { body: { uz: 'Ecofond: {id}-taklifga javob: {answer}', ru: 'Ecofond: ответ на предложение № {id}: {answer}' } },
    },
  },
  {
    code: 'announcement',
    name: { uz: 'Eʼlon', ru: 'Объявление' },
    variables: 'title, text',
    templates: {
      in_app: { subject: { uz: '{title}', ru: '{title}' }, body: { uz: '{text}', ru: '{text}' } },
    },
  },
];

/** Uzbek Cyrillic from Latin, the placeholders left as they are. */
export function cyrillic(text: string): string {
  return text
    .split(/(\{[^{}]*\})/)
    .map((part, i) => (i % 2 ? part : latinToCyrillic(part)))
    .join('');
}

const text3 = (t: Texts) => JSON.stringify({ uz: t.uz, uk: cyrillic(t.uz), ru: t.ru });

export async function seedNotifications(knex: Knex): Promise<void> {
  for (const m of METHODS) {
    if (!(await knex('notification_methods').where({ channel: m.channel }).first('id')))
      await knex('notification_methods').insert({ channel: m.channel, name: text3(m), is_active: true });
  }
  const methods = new Map<string, number>(
    (await knex('notification_methods').orderBy('id', 'desc').select('id', 'channel')).map((r: { id: number; channel: string }) => [
      r.channel,
      r.id,
    ]),
  );
  for (const t of TYPES) {
    await knex('notification_types')
      .insert({ code: t.code, name: text3(t.name), variables: t.variables, is_active: true })
      .onConflict('code')
      .ignore();
    const { id } = await knex('notification_types').where({ code: t.code }).first('id');
    for (const [channel, tpl] of Object.entries(t.templates)) {
      const method_id = methods.get(channel);
      if (!method_id || (await knex('notification_templates').where({ type_id: id, method_id }).first('id'))) continue;
      await knex('notification_templates').insert({
        type_id: id,
        method_id,
        subject: tpl.subject ? text3(tpl.subject) : null,
        body: text3(tpl.body),
        is_active: true,
      });
    }
  }
}
