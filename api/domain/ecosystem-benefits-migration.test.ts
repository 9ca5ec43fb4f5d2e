import { describe, expect, it } from 'vitest';
import { DBH_CLASS_UPPER_CM } from './ecosystem-benefits.ts';
import { DBH_CLASS_BOUNDS_CM } from '../../migrations/20261122000900_planting_facts.ts';

describe('the planting facts migration', () => {
  it('classes trunk diameters with the benefit tables’ bounds', () => {
    expect(DBH_CLASS_BOUNDS_CM).toEqual([...DBH_CLASS_UPPER_CM]);
  });
});
