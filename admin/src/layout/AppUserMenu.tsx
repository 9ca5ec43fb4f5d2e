import { forwardRef } from 'react';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { Logout, UserMenu, useGetIdentity, useTranslate, useUserMenu } from 'react-admin';
import { useNavigate } from 'react-router-dom';

/** "Profile": the user's own name, contacts, language, photo and password (ProfilePage). */
const ProfileItem = forwardRef<HTMLLIElement>((props, ref) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const menu = useUserMenu();
  return (
    <MenuItem
      ref={ref}
      {...props}
      onClick={() => {
        menu?.onClose();
        navigate('/profile');
      }}
      data-testid="menu-profile"
    >
      <ListItemIcon>
        <AccountCircleIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('admin.account.profile')}</ListItemText>
    </MenuItem>
  );
});
ProfileItem.displayName = 'ProfileItem';

/**
 * The app bar's user menu: the profile, then sign-out. Its button shows the user's name; it is
 * named by that name and the menu's caption ("Karimov Anvar — Profil"), so that the words seen are
 * the words announced (react-admin names it by the caption alone).
 */
export function AppUserMenu() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const caption = translate('ra.auth.user_menu');
  return (
    <UserMenu label={identity?.fullName ? `${identity.fullName} — ${caption}` : caption}>
      <ProfileItem />
      <Logout />
    </UserMenu>
  );
}
