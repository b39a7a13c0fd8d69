// The Help menu: Keyboard shortcuts (every action of the menus that has a shortcut,
// with its menu, and where the keys work) and About.
#pragma once

#include <QString>

class QMenuBar;
class QWidget;

namespace shardlab::app {

namespace HelpMenu {
// Adds the menu to `menus`; its dialogs open over `window`.
void add(QMenuBar& menus, QWidget& window);
QString shortcutsHtml(const QMenuBar& menus);
} // namespace HelpMenu

} // namespace shardlab::app
