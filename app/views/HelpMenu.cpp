#include "views/HelpMenu.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QWidget>

#include <functional>

namespace shardlab::app {

QString HelpMenu::shortcutsHtml(const QMenuBar& menus) {
  QString rows;
  std::function<void(const QList<QAction*>&, const QString&)> walk = [&](const QList<QAction*>& actions, const QString& menu) {
    for (auto* a : actions) {
      if (a->menu()) {
        walk(a->menu()->actions(), QString(a->menu()->title()).remove(QLatin1Char('&')));
        continue;
      }
      if (a->shortcuts().isEmpty()) continue;
      QStringList keys;
      for (const auto& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText).toHtmlEscaped();
      rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
                  .arg(keys.join(QStringLiteral(", ")), QString(a->text()).remove(QLatin1Char('&')).toHtmlEscaped(), menu.toHtmlEscaped());
    }
  };
  walk(menus.actions(), QString());
  return QCoreApplication::translate("HelpMenu", "<p>They work wherever the focus is in the window, also when the timeline or the rank view has it "
            "(click a view to give it the focus). In a text field being edited, Space and the arrows type and move "
            "the cursor; saving a prediction gives the keys back to the view.</p>") +
         QStringLiteral("<table cellpadding=\"3\">%1</table>").arg(rows) +
         QCoreApplication::translate("HelpMenu", "<p>In the timeline: mouse wheel zooms, dragging pans, a click moves the playhead.</p>");
}

void HelpMenu::add(QMenuBar& menus, QWidget& window) {
  auto* help = menus.addMenu(QCoreApplication::translate("HelpMenu", "&Help"));
  help->addAction(QCoreApplication::translate("HelpMenu", "&Keyboard shortcuts"), QKeySequence::HelpContents, &window,
                  [&window, &menus] {
                    QMessageBox box(&window);
                    box.setObjectName(QStringLiteral("shortcuts"));
                    box.setWindowTitle(QCoreApplication::translate("HelpMenu", "Keyboard shortcuts"));
                    box.setTextFormat(Qt::RichText);
                    box.setText(shortcutsHtml(menus));
                    box.exec();
                  });
  help->addAction(QCoreApplication::translate("HelpMenu", "&About ShardLab"), &window, [&window] {
    QMessageBox::about(&window, QCoreApplication::translate("HelpMenu", "About ShardLab"),
                       QCoreApplication::translate("HelpMenu", "<p><b>ShardLab %1</b></p><p>Teaches distributed training by "
                                                               "running small real jobs under Open MPI and replaying what "
                                                               "they recorded.</p>")
                           .arg(QCoreApplication::applicationVersion()));
  });
}

} // namespace shardlab::app
