import { describe, expect, it } from 'vitest';
import { lifecycleHeaders } from '../../../functions/http/lifecycle-headers.ts';
import { apiRoutes, routeOf } from '../../../functions/routes.ts';

describe("an operation's lifecycle headers, from the operation registry", () => {
  it('are none for a stable operation that is not deprecated', () => {
    expect(lifecycleHeaders(routeOf('listInventory'))).toEqual({});
  });

  it('name the stability of one that is not stable', () => {
    expect(lifecycleHeaders(routeOf('updateInventory'))).toEqual({ 'X-API-Stability': 'experimental' });
    expect(lifecycleHeaders({ stability: 'beta' })).toEqual({ 'X-API-Stability': 'beta' });
  });

  it("carry a deprecated operation's Deprecation, its Sunset (the stage's when it sets one) and the Link to why", () => {
    const link =
      '<https://docs.petstore.example/v1/deprecations#get-pet-by-id>; rel="deprecation"; type="text/html", <https://docs.petstore.example/v1/deprecations#get-pet-by-id>; rel="sunset"; type="text/html"';

    expect(lifecycleHeaders(routeOf('getPetById'))).toEqual({
      Deprecation: '@1767225600',
      Sunset: 'Thu, 01 Jul 2027 00:00:00 GMT',
      Link: link,
    });
    expect(lifecycleHeaders(routeOf('getPetById'), new Date('2028-01-31T00:00:00Z'))).toEqual({
      Deprecation: '@1767225600',
      Sunset: 'Mon, 31 Jan 2028 00:00:00 GMT',
      Link: link,
    });
  });

  it('mark as the SPEC does: the update experimental (SPEC 4.2), GET /pets/{petId} deprecated (SPEC 9)', () => {
    expect(routeOf('updateInventory').stability).toBe('experimental');
    expect(apiRoutes.filter((route) => 'deprecation' in route).map((route) => route.operationId)).toEqual(['getPetById']);
  });
});
