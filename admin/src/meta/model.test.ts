import { describe, expect, it } from 'vitest';
import { MetaModel } from './model';
import type { ClientMeta, EntityMeta } from './types';

const entity = (name: string, module: string): EntityMeta => ({
  name, module, path: `/api/${module}/${name}`, kind: 'reference', caption: `entity.${name}`, titleField: 'name', fields: [],
  list: { columns: ['id'], sort: ['id', 'asc'], perPage: 25, filters: [] },
  can: { read: true, create: true, update: true, delete: true, export: true },
});

const meta: ClientMeta = {
  lang: 'uz',
  entities: [entity('payments', 'ecofund'), entity('subject', 'ecofund'), entity('outbox', 'admin')],
  menu: [],
  routes: [
    { section: '/ecofund', route: '/ecofund/subject', caption: 'menu.subject', action: 253, entity: 'subject', nomenu: false, allowed: true },
    { section: '/ecofund', route: '/ecofund/subject/:subjects_id', caption: 'menu.subject_detail', action: 253, entity: 'subject', nomenu: true, allowed: true },
    { section: '/ecofund', route: '/ecofund/payments/:stacks_id', caption: 'menu.payments_detail', action: 390, entity: 'payments', nomenu: true, allowed: true },
    { section: '/ecofund', route: '/ecofund/payments-all', caption: 'menu.payments_all', action: 577, entity: 'payments', nomenu: false, allowed: true },
    { section: '/managing', route: '/managing/users', caption: 'menu.users', action: 5405, entity: 'users', nomenu: false, allowed: false },
    { section: '/ecoinspection-dictionaries', route: '/ecoinspection-dictionaries/template-documents/', caption: 'menu.template_documents', action: 5301, nomenu: false, allowed: true },
  ],
  captions: {},
};

describe('resources and routes from /api/meta', () => {
  const m = new MetaModel(meta);

  it('names each entity\'s resource after its menu route, never a route with parameters', () => {
    expect([...m.byResource.keys()].sort()).toEqual(['admin/outbox', 'ecofund/payments-all', 'ecofund/subject']);
    expect(m.resourceOf('payments')).toBe('ecofund/payments-all');
    expect(m.resourceOf('outbox')).toBe('admin/outbox');
    expect(m.resourceOf('users')).toBeUndefined();
    expect(m.captionOf.get('ecofund/payments-all')).toBe('menu.payments_all');
    expect(m.captionOf.get('admin/outbox')).toBe('entity.outbox');
  });

  it('finds the route of a path for the 403 and placeholder pages', () => {
    expect(m.routeFor('/managing/users')?.allowed).toBe(false);
    expect(m.routeFor('/managing/users/5/show')?.route).toBe('/managing/users');
    expect(m.routeFor('/ecofund/payments/17')?.route).toBe('/ecofund/payments/:stacks_id');
    expect(m.routeFor('/ecofund/subject/3')?.route).toBe('/ecofund/subject/:subjects_id');
    expect(m.routeFor('/ecoinspection-dictionaries/template-documents')?.caption).toBe('menu.template_documents');
    expect(m.routeFor('/ecofund/payments-allx')).toBeUndefined();
    expect(m.routeFor('/nowhere')).toBeUndefined();
  });
});
