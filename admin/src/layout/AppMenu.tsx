import { memo, useCallback, useEffect, useId, useState } from 'react';
import { Collapse, List, ListItemButton, ListItemIcon, ListItemText, Tooltip, useTheme } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import DashboardIcon from '@mui/icons-material/Dashboard';
import { Menu, useEvent, useSidebarState, useTranslate } from 'react-admin';
import { useHref, useLocation, useNavigate } from 'react-router-dom';
import { useMeta } from '../meta/store';
import { lastCategoryId, setLastCategoryId } from '../api/clientState';
import type { MenuSectionMeta } from '../meta/types';
import { DEFAULT_ITEM_ICON, DEFAULT_SECTION_ICON, iconFor } from './icons';
import { MenuLink } from './MenuLink';

const itemPath = (s: MenuSectionMeta, route: string) => `${s.route}/${route.replace(/\/+$/, '')}`;

/**
 * The menu of /api/meta: sections with an icon and a caption that open on a click, each with the
 * items the user's actions allow (the API has already dropped the others, the hidden ones and the
 * sections left empty).
 *
 * react-admin's menu is an ARIA menu (`ul role=menu`), which may hold only menu items and groups:
 * a section is a box of no role holding its button — a menu item that says whether it is expanded
 * and which group it opens — and its items' group, named by its caption (docs/accessibility.md).
 *
 * The menu follows the address and tells each item whether it is the page's (`MenuLink`): on a
 * navigation only the section holding the page is drawn again, and in it only the items whose state
 * changed.
 */
export function AppMenu() {
  const meta = useMeta();
  const translate = useTranslate();
  const location = useLocation();
  const [sidebarOpen, setSidebarOpen] = useSidebarState();
  const navigate = useNavigate();
  // below react-admin's breakpoint (its items' `md`) the menu is a drawer over the page
  const drawerQuery = useTheme()
    .breakpoints.down('md')
    .replace(/^@media\s*/, '');
  // the browser's address of a route (`#/…` under the hash router), for the items' links
  const root = useHref('/');
  const hrefOf = useCallback((to: string) => `${root.replace(/\/$/, '')}${to}`, [root]);
  const path = location.pathname;
  const active = meta.meta.menu.find((s) => path === s.route || path.startsWith(`${s.route}/`))?.route;
  // the section open: the page's, else the one the user last opened (the client state's last category id)
  const [open, setOpen] = useState<Record<string, boolean>>(() => {
    const last = active ?? lastCategoryId();
    return last ? { [last]: true } : {};
  });
  // a page opened from elsewhere (a link, a param route) opens its section
  useEffect(() => {
    if (active) setOpen((o) => (o[active] ? o : { ...o, [active]: true }));
  }, [active]);
  const toggle = useCallback((route: string, isOpen: boolean) => {
    if (!isOpen) setLastCategoryId(route);
    setOpen((o) => ({ ...o, [route]: !isOpen }));
  }, []);
  // an item chosen on a phone or a tablet closes the drawer over the page, as react-admin's items do;
  // one function for the menu's life (the sections and items are drawn again when a prop changes)
  const go = useEvent((to: string) => {
    if (window.matchMedia(drawerQuery).matches) setSidebarOpen(false);
    // the page's own item again: replaced, not a second history entry (as a router link)
    navigate(to, { replace: window.location.hash.replace(/^#/, '') === to });
  });

  return (
    <Menu data-testid="app-menu">
      <MenuLink
        to="/"
        href={hrefOf('/')}
        caption={translate('admin.menu.dashboard')}
        Icon={DashboardIcon}
        active={path === '/'}
        sidebarOpen={sidebarOpen}
        onNavigate={go}
        testId="menu-dashboard"
      />
      {meta.meta.menu.map((s) => (
        <MenuSection
          key={s.route}
          section={s}
          caption={translate(s.caption)}
          isOpen={open[s.route] ?? false}
          sidebarOpen={sidebarOpen}
          activePath={active === s.route ? path : undefined}
          hrefOf={hrefOf}
          onToggle={toggle}
          onNavigate={go}
        />
      ))}
    </Menu>
  );
}

/**
 * A section of the menu, drawn again only when its own props change: its caption (the language),
 * its open state, the sidebar, or the address while the page is one of its items (`activePath`).
 */
const MenuSection = memo(function MenuSection({
  section: s,
  caption,
  isOpen,
  sidebarOpen,
  activePath,
  hrefOf,
  onToggle,
  onNavigate,
}: {
  section: MenuSectionMeta;
  caption: string;
  isOpen: boolean;
  sidebarOpen: boolean;
  /** the page's address when it lies in this section */
  activePath: string | undefined;
  hrefOf: (to: string) => string;
  onToggle: (route: string, isOpen: boolean) => void;
  onNavigate: (to: string) => void;
}) {
  const translate = useTranslate();
  const Icon = iconFor(s.icon, DEFAULT_SECTION_ICON);
  const groupId = useId();
  return (
    <List component="div" disablePadding dense data-testid={`menu-section-${s.route.slice(1)}`}>
      <Tooltip title={sidebarOpen ? '' : caption} placement="right">
        <ListItemButton
          onClick={() => onToggle(s.route, isOpen)}
          role="menuitem"
          aria-expanded={isOpen}
          aria-controls={isOpen ? groupId : undefined}
          sx={{ pl: 2 }}
          data-testid={`menu-section-button-${s.route.slice(1)}`}
        >
          <ListItemIcon sx={{ minWidth: 40 }}>
            <Icon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={caption} slotProps={{ primary: { sx: { fontSize: '0.92rem', fontWeight: 500, whiteSpace: 'normal' } } }} />
          {isOpen ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
        </ListItemButton>
      </Tooltip>
      <Collapse in={isOpen} timeout="auto" unmountOnExit>
        <List disablePadding dense role="group" id={groupId} aria-label={caption}>
          {s.children.map((c) => {
            const to = itemPath(s, c.route);
            return (
              <MenuLink
                key={to}
                to={to}
                href={hrefOf(to)}
                caption={translate(c.caption, { _: c.caption })}
                Icon={iconFor(c.icon, DEFAULT_ITEM_ICON)}
                active={activePath !== undefined && (activePath === to || activePath.startsWith(`${to}/`))}
                sidebarOpen={sidebarOpen}
                indent
                onNavigate={onNavigate}
                testId={`menu-item-${to.slice(1)}`}
              />
            );
          })}
        </List>
      </Collapse>
    </List>
  );
});
