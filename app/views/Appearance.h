// The app's appearance from AppSettings: the Fusion style with controls scaled for a
// projector, the light or dark palette (Palette) and the font scale; and the View menu's
// actions that change them and the language.
#pragma once

#include <functional>

class QApplication;
class QMenu;

namespace shardlab::app {

namespace Appearance {
// Style, palette and font.
void apply(QApplication& app);
// View → Light theme, Dark theme, Presentation mode (F11), Larger text, Smaller text. Each
// saves its setting and applies it; `presentationToggled` then lays the window out for it.
void addActions(QMenu& view, const std::function<void(bool)>& presentationToggled);
// View → Language: English, Français, Русский. A choice is saved and its translator
// installed (AppSettings::applyLanguage); `languageChanged` follows.
void addLanguageMenu(QMenu& view, const std::function<void()>& languageChanged);
} // namespace Appearance

} // namespace shardlab::app
