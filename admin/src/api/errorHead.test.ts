import { describe, expect, it } from 'vitest';
import { errorHead } from './errorHead';

describe("an error notification's title", () => {
  it("is the API's message and code, with its description", () => {
    expect(
      errorHead(
        { code: -105, message: 'Maʼlumotlar notoʻgʻri kiritilgan', description: 'Belgilangan maydonlarni tekshiring' },
        'Tizim xatoligi',
      ),
    ).toEqual({ title: 'Maʼlumotlar notoʻgʻri kiritilgan (-105)', code: -105, description: 'Belgilangan maydonlarni tekshiring' });
    expect(errorHead({ message: 'Topilmadi' }, 'Tizim xatoligi')).toEqual({ title: 'Topilmadi', code: undefined, description: undefined });
  });

  it("is the spec's default, \"System error (-201)\" with no description, when the answer is not the API's (a bare 500, a proxy's page)", () => {
    for (const body of [{}, { message: '' }, { error: 'Internal Server Error' }, { code: 500 }]) {
      expect(errorHead(body, 'Системная ошибка')).toEqual({ title: 'Системная ошибка (-201)', code: -201, description: undefined });
    }
  });
});
