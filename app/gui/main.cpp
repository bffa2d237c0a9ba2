// lanemap: the desktop app. Everything lives in lanemap_gui_lib; this only starts the clock and the app.
#include "app.hpp"

#include <QElapsedTimer>

int main(int argc, char** argv) {
    QElapsedTimer start;
    start.start();
    return lanemap::gui::runApp(argc, argv, &start);
}
