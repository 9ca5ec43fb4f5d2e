import { memo, type ComponentType, type MouseEvent } from 'react';
import { ListItemIcon, MenuItem, Tooltip, Typography } from '@mui/material';
import { MenuItemLinkClasses } from 'react-admin';

/**
 * An item of the menu: a link that looks and behaves as react-admin's `MenuItemLink` (its class
 * names and colours, the tooltip of a closed sidebar, a plain link for a new tab) but follows no
 * address itself. `MenuItemLink` matches the address in every item, so each navigation drew every
 * visible item again (about 20 components an item); this one is told by its menu whether it is the
 * page's and is drawn again only when that, its caption or the sidebar change.
 */
export const MenuLink = memo(function MenuLink({
  to,
  href,
  caption,
  Icon,
  active,
  sidebarOpen,
  indent,
  onNavigate,
  testId,
}: {
  /** the route, `/section/item` */
  to: string;
  /** the same as the browser's address (`#/section/item`), for a new tab or a copied link */
  href: string;
  /** translated */
  caption: string;
  Icon: ComponentType<{ fontSize?: 'small' }>;
  active: boolean;
  sidebarOpen: boolean;
  /** the section's items stand in from its caption when the sidebar is open */
  indent?: boolean;
  /** a plain click: the menu navigates (and closes the phone's drawer) */
  onNavigate: (to: string) => void;
  testId: string;
}) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    // as a router link: only the plain left click stays in the page, the others are the browser's
    if (e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    onNavigate(to);
  };
  const item = (
    <MenuItem
      component="a"
      href={href}
      onClick={onClick}
      tabIndex={0}
      className={active ? `${MenuItemLinkClasses.root} ${MenuItemLinkClasses.active}` : MenuItemLinkClasses.root}
      aria-current={active ? 'page' : undefined}
      data-testid={testId}
      sx={(theme) => ({
        color: active ? theme.palette.text.primary : theme.palette.text.secondary,
        pl: indent && sidebarOpen ? 4 : 2,
        whiteSpace: 'normal',
        fontSize: indent ? '0.88rem' : undefined,
        [`& .${MenuItemLinkClasses.icon}`]: { color: theme.palette.text.secondary, minWidth: theme.spacing(5) },
        [`.MuiList-dense > & > .${MenuItemLinkClasses.icon}`]: { minWidth: theme.spacing(3.5) },
      })}
    >
      <ListItemIcon className={MenuItemLinkClasses.icon}>
        <Icon fontSize="small" />
      </ListItemIcon>
      <Typography variant="inherit" noWrap sx={{ flexGrow: 1 }}>
        {caption}
      </Typography>
    </MenuItem>
  );
  return sidebarOpen ? (
    item
  ) : (
    <Tooltip title={caption} placement="right">
      {item}
    </Tooltip>
  );
});
