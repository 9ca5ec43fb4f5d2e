import { expect } from 'vitest';
import type { TestApi } from './api.ts';

/** A subject made through the API as the test's caller (the administrator): its id, the create checked. */
export async function newSubject(api: TestApi, inn: string, region: number, category: number): Promise<number> {
  const r = await api.post('/api/ecofund/subject', { inn, name: `Subyekt ${inn}`, region_id: region, category_id: category });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}
