import { useEffect, useRef, useState } from 'react';
import { type Theme, useMediaQuery } from '@mui/material';
import { Sidebar, type SidebarProps, useSidebarState } from 'react-admin';

/**
 * react-admin's menu, whose drawer on a phone's width opens only when asked for there. The menu's
 * open state is one stored value for every width: a window narrowed to a phone's (a tablet turned),
 * or a phone's page opened after a wide screen left the menu open, rendered the phone's drawer open
 * over the page until an effect closed it — and its layer, caught mid-slide on a slow machine, took
 * the page's clicks. Here the state a phone's width inherits is drawn closed from its first render,
 * whatever renders first; the store is then told, and widened again the menu is as it was.
 */
export function AppSidebar(props: SidebarProps) {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [open, setOpen] = useSidebarState();
  // the width and the state last drawn, and whether the phone's "open" was inherited rather than asked for
  const [seen, setSeen] = useState({ phone, open, inherited: phone && open });
  let inherited = seen.inherited;
  if (seen.phone !== phone || seen.open !== open) {
    inherited = phone && seen.phone !== phone && open;
    setSeen({ phone, open, inherited });
  }
  // the menu the phone's width closed was open on the wide screen: widened again, it opens
  const reopen = useRef(false);
  useEffect(() => {
    if (phone && inherited) {
      reopen.current = true;
      setOpen(false);
    } else if (!phone && reopen.current) {
      if (!open) setOpen(true);
      reopen.current = false;
    }
  }, [phone, inherited, open, setOpen]);
  return <Sidebar {...props} open={open && !(phone && inherited)} />;
}
