import type { MetaModel } from '../api/meta/types.ts';

type Text3 = { uz: string; uk: string; ru: string };

/** Read and export of every reference book: what every staff role needs to fill its forms. */
const readReferenceBooks = (model: MetaModel): number[] =>
  [...model.entities.values()].filter((e) => e.kind === 'reference').flatMap((e) => [e.access.read, e.access.export ?? e.access.read]);

type Operation = 'read' | 'create' | 'update' | 'delete' | 'export';

/** The action ids of some operations of the named entities (those the metadata has). */
const entityActions = (model: MetaModel, names: string[], ops: Operation[]): number[] =>
  names.flatMap((n) => {
    const e = model.entities.get(n);
    return e ? ops.map((op) => e.access[op]).filter((id): id is number => id !== undefined) : [];
  });

/** Reference books plus the greening work an inspector does in the field: planting inspections and illegal felling. */
const inspectorActions = (model: MetaModel): number[] => [...new Set([
  ...readReferenceBooks(model),
  ...entityActions(model, ['planting-inspections', 'tree-cutting-violations'], ['read', 'create', 'update']),
  ...entityActions(model, ['tree-cutting-permits', 'plantings', 'hundred-yo-trees'], ['read']),
])];

/**
 * A resident registers their own garden and signs up as a volunteer; they are not given the lists
 * (other residents' names and phones), which have no per-owner scope.
 */
const populationActions = (model: MetaModel): number[] => entityActions(model, ['my-gardens', 'volunteers'], ['create']);

/**
 * The spec's ten roles (section 6) by caption. The administrator is granted every action of the
 * catalogue; the others start with the reference books and get their modules' actions as those
 * modules are built. Administrators change any of it on the access-managing screen.
 */
export const SYSTEM_ROLES: { code: string; name: Text3; actions: (m: MetaModel) => number[] }[] = [
  { code: 'inspector', name: { uz: 'Inspektor', uk: 'Инспектор', ru: 'Инспектор' }, actions: inspectorActions },
  { code: 'ecology_staff', name: { uz: 'Ekologiya xodimi', uk: 'Экология ходими', ru: 'Сотрудник экологии' }, actions: readReferenceBooks },
  { code: 'headquarters', name: { uz: 'Shtab xodimi', uk: 'Штаб ходими', ru: 'Сотрудник штаба' }, actions: readReferenceBooks },
  { code: 'confirming_staff', name: { uz: 'Tasdiqlovchi xodim', uk: 'Тасдиқловчи ходим', ru: 'Подтверждающий сотрудник' }, actions: readReferenceBooks },
  { code: 'population', name: { uz: 'Aholi foydalanuvchisi', uk: 'Аҳоли фойдаланувчиси', ru: 'Пользователь из населения' }, actions: populationActions },
  { code: 'police', name: { uz: 'IIV foydalanuvchisi', uk: 'ИИВ фойдаланувчиси', ru: 'Пользователь МВД' }, actions: readReferenceBooks },
  { code: 'fund', name: { uz: 'Jamgʻarma xodimi', uk: 'Жамғарма ходими', ru: 'Сотрудник фонда' }, actions: readReferenceBooks },
  { code: 'branch', name: { uz: 'Filial foydalanuvchisi', uk: 'Филиал фойдаланувчиси', ru: 'Пользователь филиала' }, actions: readReferenceBooks },
  { code: 'subject', name: { uz: 'Subyekt', uk: 'Субъект', ru: 'Субъект' }, actions: readReferenceBooks },
  { code: 'administrator', name: { uz: 'Administrator', uk: 'Администратор', ru: 'Администратор' }, actions: () => [] },
];
