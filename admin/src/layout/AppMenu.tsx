import { memo, useCallback, useEffect, useId, useState } from 'react';
import { Collapse, List, ListItemButton, ListItemIcon, ListItemText, Tooltip } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import DashboardIcon from '@mui/icons-material/Dashboard';
import { Menu, MenuItemLink, useSidebarState, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { useMeta } from '../meta/store';
import { lastCategoryId, setLastCategoryId } from '../api/clientState';
import type { MenuSectionMeta } from '../meta/types';
import { DEFAULT_ITEM_ICON, DEFAULT_SECTION_ICON, iconFor } from './icons';

const itemPath = (s: MenuSectionMeta, route: string) => `${s.route}/${route.replace(/\/+$/, '')}`;

/**
 * The menu of /api/meta: sections with an icon and a caption that open on a click, each with the
 * items the user's actions allow (the API has already dropped the others, the hidden ones and the
 * sections left empty).
 *
 * react-admin's menu is an ARIA menu (`ul role=menu`), which may hold only menu items and groups:
 * a section is a box of no role holding its button — a menu item that says whether it is expanded
 * and which group it opens — and its items' group, named by its caption (docs/accessibility.md).
 */
export function AppMenu() {
  const meta = useMeta();
  const translate = useTranslate();
  const location = useLocation();
  const [sidebarOpen] = useSidebarState();
  const active = meta.meta.menu.find((s) => location.pathname === s.route || location.pathname.startsWith(`${s.route}/`))?.route;
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

  return (
    <Menu data-testid="app-menu">
      <MenuItemLink to="/" primaryText="admin.menu.dashboard" leftIcon={<DashboardIcon />} data-testid="menu-dashboard" />
      {meta.meta.menu.map((s) => (
        <MenuSection
          key={s.route}
          section={s}
          caption={translate(s.caption)}
          isOpen={open[s.route] ?? false}
          sidebarOpen={sidebarOpen}
          onToggle={toggle}
        />
      ))}
    </Menu>
  );
}

/**
 * A section of the menu, drawn again only when its own props change — not on every page's
 * navigation (its items follow the address by themselves: react-admin's MenuItemLink matches it).
 */
const MenuSection = memo(function MenuSection({
  section: s,
  caption,
  isOpen,
  sidebarOpen,
  onToggle,
}: {
  section: MenuSectionMeta;
  caption: string;
  isOpen: boolean;
  sidebarOpen: boolean;
  onToggle: (route: string, isOpen: boolean) => void;
}) {
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
            const ItemIcon = iconFor(c.icon, DEFAULT_ITEM_ICON);
            const to = itemPath(s, c.route);
            return (
              <MenuItemLink
                key={to}
                to={to}
                primaryText={c.caption}
                leftIcon={<ItemIcon fontSize="small" />}
                sx={{ pl: sidebarOpen ? 4 : 2, whiteSpace: 'normal', fontSize: '0.88rem' }}
                data-testid={`menu-item-${to.slice(1)}`}
              />
            );
          })}
        </List>
      </Collapse>
    </List>
  );
});
