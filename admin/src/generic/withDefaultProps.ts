import type { Theme } from '@mui/material/styles';

type Components = NonNullable<Theme['components']>;

/**
 * The outer theme with default props added to some of MUI's components, for a nested
 * ThemeProvider's theme function: what a part of the page gives every such component inside it
 * (a row's checkbox its name, every spinner its name) without passing it to each one. A
 * component's own props still win over these.
 */
export function withDefaultProps(outer: Theme, defaults: { [K in keyof Components]?: object }): Theme {
  const components: Record<string, unknown> = { ...outer.components };
  for (const [name, props] of Object.entries(defaults)) {
    const own = components[name] as { defaultProps?: object } | undefined;
    components[name] = { ...own, defaultProps: { ...own?.defaultProps, ...props } };
  }
  return { ...outer, components: components as Theme['components'] };
}
