/**
 * A security requirement names defined schemes, and each scope it asks for is one the scheme
 * declares: OAuth scopes in its flows, or, for the API-key schemes OpenAPI 3.1 lets name
 * roles, the list in the scheme's `x-scopes`.
 */
module.exports = function securityScopesDefined(requirement, _options, { document, path }) {
  const schemes = document.data?.components?.securitySchemes ?? {};
  const problems = [];
  for (const [name, scopes] of Object.entries(requirement ?? {})) {
    const scheme = schemes[name];
    if (!scheme) {
      problems.push({ message: `Security scheme "${name}" is not defined in components.securitySchemes.`, path: [...path, name] });
      continue;
    }
    const oauthScopes = Object.values(scheme.flows ?? {}).flatMap((flow) => Object.keys(flow.scopes ?? {}));
    const declared = new Set([...oauthScopes, ...(scheme['x-scopes'] ?? [])]);
    scopes.forEach((scope, index) => {
      if (!declared.has(scope)) problems.push({ message: `"${scope}" is not a scope of security scheme "${name}".`, path: [...path, name, index] });
    });
  }
  return problems;
};
