"""The bot's pictures, drawn with Pillow and no Discord: the Sakkara and Indus boards, racks and
final boards, and Incan Gold's results chart (``pictures/<game>/``), the canvas and words they are
drawn with, and where they are drawn (:mod:`pictures.drawing`)."""
