import { describe, expect, it } from 'vitest';
import { MetaModel, substituteFilter } from './model';
import type { ClientMeta, EntityMeta } from './types';

const entity = (name: string, module: string): EntityMeta => ({
  name,
  module,
  path: `/api/${module}/${name}`,
  kind: 'reference',
  caption: `entity.${name}`,
  titleField: 'name',
  fields: [],
  list: { columns: ['id'], sort: ['id', 'asc'], perPage: 25, filters: [] },
  can: { read: true, create: true, update: true, delete: true, export: true },
});

const meta: ClientMeta = {
  lang: 'uz',
  entities: [
    {
      ...entity('payments', 'ecofund'),
      list: {
        columns: ['id'],
        sort: ['id', 'asc'],
        perPage: 25,
        filters: [{ name: 'stack_id', op: 'eq', label: 'fields.stack_id', fieldType: 'ref', ref: 'stack-payments' }],
      },
    },
    entity('subject', 'ecofund'),
    entity('outbox', 'admin'),
  ],
  menu: [],
  routes: [
    {
      section: '/ecofund',
      route: '/ecofund/subject',
      caption: 'menu.subject',
      action: 253,
      entity: 'subject',
      nomenu: false,
      allowed: true,
    },
    {
      section: '/ecofund',
      route: '/ecofund/subject/:subjects_id',
      caption: 'menu.subject_detail',
      action: 253,
      entity: 'subject',
      nomenu: true,
      allowed: true,
    },
    {
      section: '/ecofund',
      route: '/ecofund/payments/:stacks_id',
      caption: 'menu.payments_detail',
      action: 390,
      entity: 'payments',
      nomenu: true,
      allowed: true,
      filter: { stack_id: ':stacks_id' },
    },
    {
      section: '/ecofund',
      route: '/ecofund/payments-all',
      caption: 'menu.payments_all',
      action: 577,
      entity: 'payments',
      nomenu: false,
      allowed: true,
    },
    { section: '/managing', route: '/managing/users', caption: 'menu.users', action: 5405, entity: 'users', nomenu: false, allowed: false },
    {
      section: '/ecoinspection-dictionaries',
      route: '/ecoinspection-dictionaries/template-documents/',
      caption: 'menu.template_documents',
      action: 5301,
      nomenu: false,
      allowed: true,
    },
  ],
  captions: {},
};

describe('resources and routes from /api/meta', () => {
  const m = new MetaModel(meta);

  it("names each entity's resource after its menu route, never a route with parameters", () => {
    expect([...m.byResource.keys()].sort()).toEqual(['admin/outbox', 'ecofund/payments-all', 'ecofund/subject']);
    expect(m.resourceOf('payments')).toBe('ecofund/payments-all');
    expect(m.resourceOf('outbox')).toBe('admin/outbox');
    expect(m.resourceOf('users')).toBeUndefined();
    expect(m.captionOf.get('ecofund/payments-all')).toBe('menu.payments_all');
    expect(m.captionOf.get('admin/outbox')).toBe('entity.outbox');
  });

  it("makes routes with parameters lists filtered by them, or a row's page", () => {
    const payments = m.routes.find((r) => r.route === '/ecofund/payments/:stacks_id')!;
    expect(payments).toMatchObject({ kind: 'param-list', resource: 'ecofund/payments/:stacks_id', filter: { stack_id: ':stacks_id' } });
    expect(m.entity('ecofund/payments/:stacks_id')?.name).toBe('payments');
    expect(substituteFilter(payments.filter, { stacks_id: '5' })).toEqual({ stack_id: 5 });
    expect(m.routes.find((r) => r.route === '/ecofund/subject/:subjects_id')).toMatchObject({
      kind: 'record',
      resource: 'ecofund/subject',
    });
    expect(m.showPath('ecofund/subject', 3)).toBe('/ecofund/subject/3');
    expect(m.editPath('ecofund/subject', 3)).toBe('/ecofund/subject/3/edit');
    expect(m.showPath('ecofund/payments-all', 3)).toBe('/ecofund/payments-all/3/show');
    expect(m.editPath('ecofund/payments-all', 3)).toBe('/ecofund/payments-all/3');
  });

  it("takes a route's filter from the server, and preset filters from the menu", () => {
    const withFilters = new MetaModel({
      ...meta,
      menu: [
        {
          route: '/ecofund',
          caption: 'menu.ecofund',
          children: [
            {
              route: 'inspector-report',
              caption: 'menu.inspector_report',
              action: 269,
              entity: 'reports',
              filter: { status: ['sent', 'in_process'] },
            },
            { route: 'reports', caption: 'menu.reports', action: 5201, entity: 'reports' },
          ],
        },
      ],
      entities: [...meta.entities, entity('reports', 'ecofund'), { ...entity('subject', 'ecofund'), name: 'subject' }],
      routes: [
        ...meta.routes,
        {
          section: '/ecofund',
          route: '/ecofund/inspector-report',
          caption: 'menu.inspector_report',
          action: 269,
          entity: 'reports',
          nomenu: false,
          allowed: true,
        },
        {
          section: '/ecofund',
          route: '/ecofund/reports',
          caption: 'menu.reports',
          action: 5201,
          entity: 'reports',
          nomenu: false,
          allowed: true,
        },
        {
          section: '/ecofund',
          route: '/ecofund/subject-branchs/:id',
          caption: 'menu.subject_branchs_detail',
          action: 253,
          entity: 'subject',
          nomenu: true,
          allowed: true,
          filter: { parent_id: ':id' },
        },
      ],
    });
    expect(withFilters.presetFilter('ecofund/inspector-report')).toEqual({ status: ['sent', 'in_process'] });
    // the entity's own resource is the one without a preset filter
    expect(withFilters.resourceOf('reports')).toBe('ecofund/reports');
    expect(withFilters.routes.find((r) => r.path === 'ecofund/subject-branchs/:id')?.kind).toBe('param-list');
  });

  it("never guesses a filter from a parameter's name", () => {
    const bare = new MetaModel({
      ...meta,
      routes: meta.routes.map((r) => (r.route === '/ecofund/payments/:stacks_id' ? { ...r, filter: undefined } : r)),
    });
    expect(bare.routes.find((r) => r.route === '/ecofund/payments/:stacks_id')?.kind).toBe('screen');
  });

  it('makes `:params` routes lists filtered by the segment, and report routes reports', () => {
    const plantings = { ...entity('plantings', 'ecofund-plantings'), kind: 'document' as const };
    const m2 = new MetaModel({
      ...meta,
      entities: [...meta.entities, plantings],
      reports: [
        { name: 'plan-execution-by-org', caption: 'menu.plan_execution_by_org', params: { year: { type: 'year', default: 'current' } } },
      ],
      routes: [
        {
          section: '/ecofund-plantings',
          route: '/ecofund-plantings/plantings',
          caption: 'entity.plantings',
          entity: 'plantings',
          nomenu: false,
          allowed: true,
        },
        {
          section: '/ecofund-plantings',
          route: '/ecofund-plantings/plantings/:params',
          caption: 'menu.plantings_detail',
          entity: 'plantings',
          nomenu: true,
          allowed: true,
          filter: { source: 'registry' },
        },
        {
          section: '/ecofund-plantings',
          route: '/ecofund-plantings/plan-execution-by-org',
          caption: 'menu.plan_execution_by_org',
          report: 'plan-execution-by-org',
          nomenu: false,
          allowed: true,
        },
        {
          section: '/ecofund-plantings',
          route: '/ecofund-plantings/plan-execution-by-org/:params',
          caption: 'menu.detail',
          report: 'plan-execution-by-org-region',
          nomenu: true,
          allowed: true,
        },
      ],
    });
    const detail = m2.routes.find((r) => r.path === 'ecofund-plantings/plantings/:params')!;
    expect(detail).toMatchObject({ kind: 'param-list', resource: 'ecofund-plantings/plantings/:params', filter: { source: 'registry' } });
    expect(m2.entity('ecofund-plantings/plantings/:params')?.name).toBe('plantings');
    // the plain list stays the entity's resource and show pages stay `…/:id/show`
    expect(m2.resourceOf('plantings')).toBe('ecofund-plantings/plantings');
    expect(m2.recordResources.has('ecofund-plantings/plantings')).toBe(false);
    // `plantings/:params` would take `…/plantings/create` and `…/plantings/655`: the form moves to `…/655/edit`
    expect(m2.shadowedResources.has('ecofund-plantings/plantings')).toBe(true);
    expect(m2.editPath('ecofund-plantings/plantings', 655)).toBe('/ecofund-plantings/plantings/655/edit');
    expect(m2.showPath('ecofund-plantings/plantings', 655)).toBe('/ecofund-plantings/plantings/655/show');
    expect(m2.routes.find((r) => r.path === 'ecofund-plantings/plan-execution-by-org')?.kind).toBe('report');
    expect(m2.routes.find((r) => r.path === 'ecofund-plantings/plan-execution-by-org/:params')).toMatchObject({
      kind: 'report',
      report: 'plan-execution-by-org-region',
    });
    expect(m2.report('plan-execution-by-org')?.params.year).toEqual({ type: 'year', default: 'current' });
    expect(m2.report('nothing')).toBeUndefined();
  });

  it("lists what a list route's action does not open as not allowed", () => {
    expect(m.listAllowed('ecofund/subject')).toBe(true);
    const closed = new MetaModel({
      ...meta,
      routes: meta.routes.map((r) => (r.route === '/ecofund/payments-all' ? { ...r, allowed: false } : r)),
    });
    expect(closed.listAllowed('ecofund/payments-all')).toBe(false);
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
