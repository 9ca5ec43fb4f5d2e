import { Icon, PageTitle } from '../components/ui';
import { contacts } from '../config';
import { useI18n, type Lang } from '../i18n';
import { href } from '../router';

/**
 * /about (the "Yashil makon" nationwide project and the decree it started with) and /contacts
 * (the hotline). Their longer texts live here, in the three languages, so they do not weigh on the
 * landing page's captions; the hotline and e-mail come from config.ts.
 */
interface Section { h: string; p: string[] }
interface AboutText { sections: Section[]; source: string }

const ABOUT: Record<Lang, AboutText> = {
  uz: {
    sections: [
      {
        h: '«Yashil makon» umummilliy loyihasi',
        p: [
          '«Yashil makon» — Oʻzbekiston Respublikasi Prezidentining 2021-yil 30-dekabrdagi PF-46-son Farmoni bilan boshlangan umummilliy loyiha. Uning maqsadi — mamlakatni koʻkalamzorlashtirish ishlarini jadallashtirish, daraxtlarni asrash va shahar hamda qishloqlarda yashil hududlarni koʻpaytirish.',
          'Loyiha doirasida butun mamlakat boʻylab har yili 200 million tup daraxt va buta ekish koʻzda tutilgan. Ekishlarda hududlar, vazirlik va idoralar, tashkilotlar, oʻrmon xoʻjaliklari, volontyorlar va aholi ishtirok etadi.',
        ],
      },
      {
        h: 'Ushbu sayt nimani koʻrsatadi',
        p: [
          'Sayt loyiha natijalarini ochiq koʻrsatadi: yil davomida ekilgan daraxtlar soni va yillik maqsadning bajarilishi, daraxtlar xaritasi va har bir ekishning pasporti, hududlar, daraxt turlari va tashkilotlar boʻyicha statistika, bogʻlar va parklar, daraxt kesishga berilgan ruxsatnomalar hamda noqonuniy kesish holatlari.',
          'Daraxt ekdingizmi? «Men daraxt ekdim» shakli orqali xabar bering: moderator tekshirgach, daraxtingiz xaritada va statistikada koʻrinadi. Aholi daraxt ekishi mumkin boʻlgan hududlar alohida sahifada koʻrsatilgan.',
        ],
      },
    ],
    source: 'Farmonning rasmiy matni Oʻzbekiston Respublikasi Qonunchilik maʼlumotlari milliy bazasida eʼlon qilingan:',
  },
  uk: {
    sections: [
      {
        h: '«Яшил макон» умуммиллий лойиҳаси',
        p: [
          '«Яшил макон» — Ўзбекистон Республикаси Президентининг 2021 йил 30 декабрдаги ПФ-46-сон Фармони билан бошланган умуммиллий лойиҳа. Унинг мақсади — мамлакатни кўкаламзорлаштириш ишларини жадаллаштириш, дарахтларни асраш ва шаҳар ҳамда қишлоқларда яшил ҳудудларни кўпайтириш.',
          'Лойиҳа доирасида бутун мамлакат бўйлаб ҳар йили 200 миллион туп дарахт ва бута экиш кўзда тутилган. Экишларда ҳудудлар, вазирлик ва идоралар, ташкилотлар, ўрмон хўжаликлари, волонтёрлар ва аҳоли иштирок этади.',
        ],
      },
      {
        h: 'Ушбу сайт нимани кўрсатади',
        p: [
          'Сайт лойиҳа натижаларини очиқ кўрсатади: йил давомида экилган дарахтлар сони ва йиллик мақсаднинг бажарилиши, дарахтлар харитаси ва ҳар бир экишнинг паспорти, ҳудудлар, дарахт турлари ва ташкилотлар бўйича статистика, боғлар ва парклар, дарахт кесишга берилган рухсатномалар ҳамда ноқонуний кесиш ҳолатлари.',
          'Дарахт экдингизми? «Мен дарахт экдим» шакли орқали хабар беринг: модератор текширгач, дарахтингиз харитада ва статистикада кўринади. Аҳоли дарахт экиши мумкин бўлган ҳудудлар алоҳида саҳифада кўрсатилган.',
        ],
      },
    ],
    source: 'Фармоннинг расмий матни Ўзбекистон Республикаси Қонунчилик маълумотлари миллий базасида эълон қилинган:',
  },
  ru: {
    sections: [
      {
        h: 'Общенациональный проект «Яшил макон»',
        p: [
          '«Яшил макон» («Зелёное пространство») — общенациональный проект, начатый Указом Президента Республики Узбекистан от 30 декабря 2021 года № УП-46. Его цель — ускорить озеленение страны, сберечь деревья и увеличить зелёные зоны в городах и сёлах.',
          'В рамках проекта по всей стране ежегодно предусмотрена посадка 200 миллионов деревьев и кустарников. В посадках участвуют регионы, министерства и ведомства, организации, лесные хозяйства, волонтёры и жители.',
        ],
      },
      {
        h: 'Что показывает этот сайт',
        p: [
          'Сайт открыто показывает результаты проекта: число деревьев, посаженных за год, и выполнение годовой цели, карту деревьев и паспорт каждой посадки, статистику по регионам, породам деревьев и организациям, сады и парки, разрешения на вырубку деревьев и случаи незаконной вырубки.',
          'Посадили дерево? Сообщите через форму «Я посадил дерево»: после проверки модератором ваше дерево появится на карте и в статистике. Территории, где жители могут сажать деревья, показаны на отдельной странице.',
        ],
      },
    ],
    source: 'Официальный текст указа опубликован в Национальной базе данных законодательства Республики Узбекистан:',
  },
};

export default function Info({ path }: { path: string }) {
  return path === '/contacts' ? <Contacts /> : <About />;
}

function About() {
  const { t, lang } = useI18n();
  const text = ABOUT[lang];
  return (
    <article className="container narrow prose-page" data-testid="about">
      <PageTitle sub={t('about.lead')}>{t('page.about')}</PageTitle>
      {text.sections.map((s) => (
        <section key={s.h} className="card prose">
          <h2>{s.h}</h2>
          {s.p.map((p) => <p key={p.slice(0, 24)}>{p}</p>)}
        </section>
      ))}
      <section className="card prose">
        <p>{text.source} <a href="https://lex.uz" target="_blank" rel="noopener">lex.uz<span className="visually-hidden"> {t('common.new_window')}</span></a></p>
        <p className="row-gap">
          <a className="btn primary" href={href('/population-seedlings')}>{t('page.planting_form')}</a>
          <a className="btn" href={href('/map')}>{t('page.map')}</a>
          <a className="btn" href={href('/contacts')}>{t('page.contacts')}</a>
        </p>
      </section>
    </article>
  );
}

function Contacts() {
  const { t } = useI18n();
  const c = contacts();
  return (
    <div className="container narrow" data-testid="contacts">
      <PageTitle sub={t('contacts.lead')}>{t('page.contacts')}</PageTitle>
      <section className="card hotline">
        <Icon name="phone" className="empty-icon" />
        <h2>{t('contacts.hotline')}</h2>
        <p className="hotline-number"><a href={`tel:${c.tel}`} data-testid="hotline">{c.hotline}</a></p>
        <p className="muted">{t('contacts.hotline_text')}</p>
      </section>
      <section className="card">
        <h2>{t('contacts.write')}</h2>
        <p><Icon name="mail" /> <a href={`mailto:${c.email}`} data-testid="email">{c.email}</a></p>
        <p className="muted">{t('contacts.write_text')}</p>
      </section>
      <section className="card">
        <h2>{t('contacts.other')}</h2>
        <ul className="link-list">
          <li><a href={href('/illegal-loggers')}>{t('page.illegal_loggers')}</a></li>
          <li><a href={href('/population-seedlings')}>{t('page.planting_form')}</a></li>
          <li><a href={href('/about')}>{t('page.about')}</a></li>
          <li><a href="/admin/">{t('footer.staff')}</a></li>
        </ul>
      </section>
    </div>
  );
}
